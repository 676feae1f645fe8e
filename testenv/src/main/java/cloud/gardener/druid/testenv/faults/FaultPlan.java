package cloud.gardener.druid.testenv.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The faults of a run, derived from its seed alone, so that a failing run replays exactly:
 * the first rounds take every selected kind once (in a seeded order), later rounds draw kinds
 * at random; targets, hold times and which rounds run during a rollout are drawn too. At least
 * one round runs during a rollout when there are two rounds or more, and an operator failover
 * always does.
 */
public final class FaultPlan {

  static final Duration MIN_HOLD = Duration.ofMillis(1500);
  static final Duration MAX_HOLD = Duration.ofMillis(6000);
  static final double ROLLOUT_SHARE = 0.3;

  private FaultPlan() {
  }

  public static List<Fault> of(long seed, int rounds, List<FaultKind> kinds, int members) {
    if (rounds < 1 || members < 1 || kinds.isEmpty()) {
      throw new IllegalArgumentException("a plan needs rounds >= 1, members >= 1 and a fault kind");
    }
    Random random = new Random(seed);
    List<FaultKind> order = new ArrayList<>(List.copyOf(kinds));
    Collections.shuffle(order, random);
    int forcedRollout = rounds >= 2 ? 1 + random.nextInt(Math.min(rounds, order.size())) : -1;
    List<Fault> plan = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      FaultKind kind = round <= order.size() ? order.get(round - 1)
          : kinds.get(random.nextInt(kinds.size()));
      int member = random.nextInt(members);
      long holdMillis = MIN_HOLD.toMillis()
          + random.nextInt((int) (MAX_HOLD.toMillis() - MIN_HOLD.toMillis()) + 1);
      boolean rollout = round == forcedRollout || random.nextDouble() < ROLLOUT_SHARE;
      rollout |= kind.alwaysDuringRollout();
      plan.add(new Fault(round, kind, member, Duration.ofMillis(holdMillis), rollout));
    }
    return List.copyOf(plan);
  }
}
