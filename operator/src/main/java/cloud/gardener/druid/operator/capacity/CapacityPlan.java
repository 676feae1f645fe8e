package cloud.gardener.druid.operator.capacity;

import cloud.gardener.druid.api.ByteSizes;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.capacity.CapacityAction.Compact;
import cloud.gardener.druid.operator.capacity.CapacityAction.Defragment;
import cloud.gardener.druid.operator.capacity.CapacityAction.DisarmAlarm;
import cloud.gardener.druid.operator.capacity.CapacityAction.GrowVolume;
import cloud.gardener.druid.operator.capacity.CapacityAction.Hold;
import cloud.gardener.druid.operator.capacity.CapacityAction.Idle;
import cloud.gardener.druid.operator.capacity.CapacityAction.MoveLeader;
import cloud.gardener.druid.operator.capacity.CapacityAction.RaiseQuota;
import cloud.gardener.druid.operator.observe.ClusterHealth;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The capacity flow's next step (pure), taken only once the rollout is done: recover from
 * NOSPACE (compact if allowed, defragment, disarm), else defragment early when a forecast or
 * a threshold says so and a defragmentation gives space back, else raise the quota within
 * spec.etcd.capacity.maxQuota, growing the volumes first when they would not hold it. Every
 * step needs every member ready, voting and in sync; defragmentation goes follower by
 * follower, the leader last after leadership moved. Stateless: each step follows from the
 * members' space as measured, so an operator restarted at any point goes on.
 */
public final class CapacityPlan {

  static final long MIB = 1L << 20;
  /** Below this share of the quota (in %), a NOSPACE alarm is disarmed. */
  static final int DISARM_BELOW_PERCENT = 95;

  private final ClusterHealth health;

  public CapacityPlan(ClusterHealth health) {
    this.health = health;
  }

  /** The next step; {@code compactedRevision} is the revision the flow last compacted to. */
  public CapacityAction next(ClusterSnapshot s, SpaceForecast f, CapacityPolicy p,
      long compactedRevision) {
    if (!f.reported()) {
      return new Idle("no member's agent has reported its space yet");
    }
    if (!p.automatic()) {
      return new Idle("automatic capacity actions are off (spec.etcd.capacity.automatic)");
    }
    Optional<CapacityAction> wanted = f.noSpace().isEmpty() ? early(s, f, p)
        : Optional.of(recover(s, f, p, compactedRevision));
    if (wanted.isEmpty() || !wanted.get().acts()) {
      return wanted.orElseGet(() -> new Idle("enough space: " + f.describe()));
    }
    if (s.volumes().active().isPresent()) {
      return new Hold(wanted.get().describe(), "a volume operation is in progress");
    }
    Optional<String> unsafe = health.whyNotSafeToRoll(s);
    return unsafe.<CapacityAction>map(u -> new Hold(wanted.get().describe(), u))
        .orElse(wanted.get());
  }

  /** {@code wanted}, or held while any of the EtcdOpsTasks named in {@code running} runs. */
  public static CapacityAction unlessTasksRun(CapacityAction wanted, List<String> running) {
    return running.isEmpty() ? wanted : new Hold(wanted.describe(), "EtcdOpsTask "
        + String.join(", ", running) + " is in progress");
  }

  /** Before the alarm: defragment when it helps, else raise the quota when allowed. */
  private Optional<CapacityAction> early(ClusterSnapshot s, SpaceForecast f, CapacityPolicy p) {
    Optional<String> pressure = Pressure.defragmentation(f, p);
    if (pressure.isPresent()) {
      List<MemberForecast> worth = f.members().stream()
          .filter(m -> Pressure.worthDefragmenting(m)).toList();
      return Optional.of(defragment(s, worth, pressure.get()));
    }
    return Pressure.inUse(f, p).flatMap(why -> raise(s, f, p, why));
  }

  private CapacityAction recover(ClusterSnapshot s, SpaceForecast f, CapacityPolicy p,
      long compactedRevision) {
    String raised = "etcd's NOSPACE alarm is raised on " + String.join(", ",
        f.noSpace().stream().map(MemberForecast::name).toList()) + ": " + f.describe();
    Optional<MemberObservation> via = s.readyLeader().or(() -> s.wanted().stream()
        .filter(MemberObservation::votes).findFirst());
    if (via.isEmpty()) {
      return new Hold("recovering from NOSPACE", "no ready voting member");
    }
    if (p.compactOnNoSpace() && f.revision() > compactedRevision) {
      return new Compact(via.get().ordinal(), raised + "; compaction is allowed");
    }
    List<MemberForecast> reclaim = f.members().stream()
        .filter(m -> m.reclaimableBytes() >= MIB).toList();
    if (!reclaim.isEmpty()) {
      return defragment(s, reclaim, raised);
    }
    if (f.members().stream().allMatch(m -> m.space().dbSizeBytes() * 100
        < m.space().quotaBytes() * DISARM_BELOW_PERCENT)) {
      return new DisarmAlarm(via.get().ordinal(), raised + "; every member is below "
          + DISARM_BELOW_PERCENT + "% of its quota now");
    }
    return raise(s, f, p, raised + "; the data in use does not fit below the quota")
        .orElseGet(() -> new Idle(raised + "; nothing left to free: the quota must be raised"
            + " (spec.etcd.quota or spec.etcd.capacity.maxQuota) or data deleted"));
  }

  /** Followers first (by ordinal), the leader last once leadership moved to another member. */
  private static CapacityAction defragment(ClusterSnapshot s, List<MemberForecast> worth,
      String trigger) {
    Optional<MemberForecast> follower = worth.stream().filter(m -> !m.leader())
        .min(Comparator.comparingInt(MemberForecast::ordinal));
    if (follower.isPresent()) {
      return new Defragment(follower.get().ordinal(), follower.get().name(), trigger);
    }
    MemberForecast leader = worth.get(0);
    MemberObservation observed = s.members().get(leader.ordinal());
    if (s.wanted().size() == 1) {
      return new Defragment(leader.ordinal(), leader.name(), trigger);
    }
    return s.leadershipTarget(observed, m -> true).<CapacityAction>map(to -> new MoveLeader(
            leader.ordinal(), leader.name(), to.agent().map(AgentView::memberId).orElseThrow(),
            to.name(), trigger))
        .orElseGet(() -> new Hold("defragmenting " + leader.name(),
            "no ready voting member to take over leadership"));
  }

  /**
   * A larger quota within maxQuota: half as large again (at least twice the data in use);
   * first larger volumes when they would not hold twice the quota (a defragmentation writes a
   * copy) beside the WAL and snapshots. Empty when raising is not allowed or at the bound.
   */
  private static Optional<CapacityAction> raise(ClusterSnapshot s, SpaceForecast f,
      CapacityPolicy p, String why) {
    if (p.maxQuotaBytes().isEmpty() || f.quotaBytes() >= p.maxQuotaBytes().getAsLong()) {
      return Optional.empty();
    }
    long quota = f.quotaBytes();
    long target = Math.min(p.maxQuotaBytes().getAsLong(),
        Rounding.upToMi(Math.max(quota + quota / 2, 2 * f.dbSizeInUseBytes())));
    long need = 2 * target + Math.max(f.overheadBytes(), 64 * MIB);
    String trigger = why + "; maxQuota " + ByteSizes.of(p.maxQuotaBytes().getAsLong());
    if (f.volumeBytes() >= need) {
      return Optional.of(new RaiseQuota(quota, target, trigger));
    }
    if (!s.volumes().classExpandable()) {
      return Optional.of(new Hold("raising the quota to " + ByteSizes.of(target), "the volumes ("
          + ByteSizes.of(f.volumeBytes()) + ") would not hold it and their storage class does"
          + " not allow expansion"));
    }
    long grown = need > 1L << 30 ? (need + (1L << 30) - 1) >> 30 << 30
        : (need + 64 * MIB - 1) / (64 * MIB) * (64 * MIB);
    return Optional.of(new GrowVolume(f.volumeBytes(), grown, trigger + "; a quota of "
        + ByteSizes.of(target) + " needs " + ByteSizes.of(need) + " of volume"));
  }
}
