package cloud.gardener.druid.operator.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The forecast math: time to the quota and to a full volume from the agents' figures. */
class SpaceForecastTest {

  static final long MI = 1L << 20;

  static MemberSpace space(long dbMi, long inUseMi, long quotaMi, double growthMiPerMin,
      double inUseGrowthMiPerMin) {
    return new MemberSpace(dbMi * MI, inUseMi * MI, quotaMi * MI, 100L << 30, 50L << 30,
        dbMi * MI + 70 * MI, 10, growthMiPerMin * MI / 60, inUseGrowthMiPerMin * MI / 60, 300,
        List.of(), 1000);
  }

  @Test
  void theQuotaIsReachedWhenTheDatabaseGrowsByWhatIsLeft() {
    MemberForecast m = forecast(space(32, 8, 64, 1, 0), "1Gi");
    assertThat(m.timeToQuota()).contains(Duration.ofMinutes(32));
    assertThat(m.inUseTimeToQuota()).isEmpty();
    assertThat(m.reclaimableBytes()).isEqualTo(24 * MI);
    assertThat(m.fragmentationPercent()).isEqualTo(75);
    assertThat(m.quotaPercent()).isEqualTo(50);
  }

  @Test
  void aDatabaseThatDoesNotGrowHasNoForecastAndOneAtTheQuotaHasZero() {
    assertThat(forecast(space(32, 8, 64, 0, 0), "1Gi").timeToQuota()).isEmpty();
    assertThat(forecast(space(32, 8, 64, -2, 0), "1Gi").timeToQuota()).isEmpty();
    assertThat(forecast(space(64, 60, 64, 0, 0), "1Gi").timeToQuota()).contains(Duration.ZERO);
  }

  @Test
  void onASharedFileSystemTheClaimBoundsTheVolume() {
    // the file system has 50Gi free of 100Gi; the claim is 1Gi, the data directory 102Mi
    MemberForecast m = forecast(space(32, 8, 64, 2, 0), "1Gi");
    assertThat(m.volumeBytes()).isEqualTo(1L << 30);
    assertThat(m.volumeFreeBytes()).isEqualTo((1L << 30) - 102 * MI);
    assertThat(m.timeToVolumeFull()).contains(Duration.ofSeconds((1024 - 102) * 30));
  }

  @Test
  void theClusterForecastIsItsWorstMember() {
    FakeCluster c = SpacePlans.cluster(3, 0);
    c.members.get(0).space = space(20, 10, 64, 1, 0);
    c.members.get(1).space = space(40, 10, 64, 1, 0);
    c.members.get(2).space = space(30, 25, 64, 0, 3);
    SpaceForecast f = SpaceForecast.of(c.snapshot());
    assertThat(f.dbSizeBytes()).isEqualTo(40 * MI);
    assertThat(f.dbSizeInUseBytes()).isEqualTo(25 * MI);
    assertThat(f.timeToQuota()).contains(Duration.ofMinutes(24));
    assertThat(f.inUseTimeToQuota()).contains(Duration.ofMinutes(13));
    assertThat(f.describe()).isEqualTo("40Mi of the 64Mi quota (in use 25Mi), quota reached"
        + " in ~15m, volume full in ~7d");
  }

  @Test
  void membersWithoutAReportDoNotCount() {
    FakeCluster c = SpacePlans.cluster(3, 0);
    c.members.get(1).space = space(40, 10, 64, 1, 0);
    SpaceForecast f = SpaceForecast.of(c.snapshot());
    assertThat(f.members()).hasSize(1);
    assertThat(SpaceForecast.of(SpacePlans.cluster(3, 0).snapshot()).reported()).isFalse();
  }

  private static MemberForecast forecast(MemberSpace space, String claim) {
    FakeCluster c = SpacePlans.cluster(1, 0);
    c.volumeCapacity = new Quantity(claim);
    c.members.get(0).space = space;
    return SpaceForecast.of(c.snapshot()).members().get(0);
  }

  @Test
  void untilIsZeroWhenNothingIsLeftAndCappedFarAway() {
    assertThat(MemberForecast.until(-5, 1)).contains(Duration.ZERO);
    assertThat(MemberForecast.until(Long.MAX_VALUE, 1)).contains(Duration.ofDays(3650));
    assertThat(MemberForecast.until(100, 0)).isEqualTo(Optional.empty());
  }
}
