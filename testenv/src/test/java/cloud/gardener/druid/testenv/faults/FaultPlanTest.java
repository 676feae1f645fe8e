package cloud.gardener.druid.testenv.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FaultPlanTest {

  private static final List<FaultKind> ALL = List.of(FaultKind.values());

  @Test
  void theSameSeedPlansTheSameRunAndAnotherSeedAnotherOne() {
    assertThat(FaultPlan.of(42, 50, ALL, 3)).isEqualTo(FaultPlan.of(42, 50, ALL, 3));
    assertThat(FaultPlan.of(42, 50, ALL, 3)).isNotEqualTo(FaultPlan.of(43, 50, ALL, 3));
  }

  @Test
  void theFirstRoundsTakeEverySelectedKindOnceAndSomeRoundRunsDuringARollout() {
    for (long seed = 0; seed < 200; seed++) {
      List<Fault> plan = FaultPlan.of(seed, 8, ALL, 3);
      assertThat(plan.subList(0, ALL.size()).stream().map(Fault::kind)
          .collect(Collectors.toSet())).isEqualTo(Set.copyOf(ALL));
      assertThat(plan).anyMatch(Fault::duringRollout);
      assertThat(plan).allMatch(f -> f.member() >= 0 && f.member() < 3
          && f.hold().compareTo(FaultPlan.MIN_HOLD) >= 0
          && f.hold().compareTo(FaultPlan.MAX_HOLD) <= 0);
      assertThat(plan.stream().map(Fault::round).toList())
          .containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    }
  }

  @Test
  void anOperatorFailoverAlwaysHitsARollout() {
    assertThat(FaultPlan.of(5, 30, ALL, 3)).filteredOn(f -> f.kind()
        == FaultKind.OPERATOR_FAILOVER).isNotEmpty().allMatch(Fault::duringRollout);
  }

  @Test
  void onlyTheSelectedKindsArePlanned() {
    assertThat(FaultPlan.of(7, 20, List.of(FaultKind.ETCD_KILL), 3))
        .allMatch(f -> f.kind() == FaultKind.ETCD_KILL);
  }

  @Test
  void kindsParseByTheirCommandLineNamesAndAnUnknownNameIsNamed() {
    assertThat(FaultKind.parse("leader-pause")).isEqualTo(FaultKind.LEADER_PAUSE);
    assertThatThrownBy(() -> FaultKind.parse("disk-full"))
        .hasMessageContaining("unknown fault 'disk-full'").hasMessageContaining("etcd-kill");
  }

  @Test
  void anEmptyPlanIsRefused() {
    assertThatThrownBy(() -> FaultPlan.of(1, 0, ALL, 3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FaultPlan.of(1, 3, List.of(), 3))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
