package cloud.gardener.druid.operator.rollout;

import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.Downgrade;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.agent.AgentView.EtcdVersions;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.EtcdVersionView;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a change of {@code spec.etcd.version} adds to the roll of outdated members
 * (docs/etcd-versions.md):
 *
 * <ul>
 *   <li>an upgrade (the spec's minor at or above etcd's cluster version): a full snapshot
 *       before the first member runs the new minor, then the usual roll, leader last; etcd
 *       raises the cluster version by itself once every member runs the new minor;
 *   <li>a downgrade (the spec's minor below the cluster version): a full snapshot, then etcd's
 *       downgrade is validated and enabled (etcd lowers the cluster version at once), then the
 *       usual roll, each member only once etcd migrated its database to the older schema; etcd
 *       ends the downgrade by itself once every member runs the old minor;
 *   <li>a downgrade the spec does not ask for (the spec turned back, or enabled by hand) is
 *       cancelled before anything else rolls;
 *   <li>the rollout is done only once the cluster version is the spec's minor and no
 *       downgrade is enabled.
 * </ul>
 *
 * <p>Pure, like {@link MemberRollout}.
 */
final class EtcdVersionChange {

  private EtcdVersionChange() {
  }

  /**
   * A downgrade etcd has enabled that the spec does not ask for (the spec turned back, or
   * someone enabled it by hand): cancelled before anything else rolls, whether or not a member
   * is outdated.
   */
  static Optional<RolloutAction> cancelUnwanted(ClusterSnapshot s) {
    EtcdRelease target = EtcdDefaults.etcdRelease(s.etcd());
    String enabled = EtcdVersionView.of(s).downgradeTarget();
    if (enabled == null || enabled.equals(target.minor())) {
      return Optional.empty();
    }
    return Optional.of(s.readyLeader().<RolloutAction>map(v -> new Downgrade(v.ordinal(),
            Downgraded.Action.CANCEL, enabled, OptionalInt.empty()))
        .orElseGet(() -> new Wait("a ready leader to cancel etcd's downgrade to " + enabled)));
  }

  /** The downgrade to enable before any outdated member restarts, if one is due. */
  static Optional<RolloutAction> protocolStep(ClusterSnapshot s) {
    EtcdRelease target = EtcdDefaults.etcdRelease(s.etcd());
    EtcdVersions seen = EtcdVersionView.of(s);
    Optional<EtcdRelease> cluster = EtcdRelease.of(seen.cluster());
    if (seen.downgradeTarget() != null || cluster.isEmpty()
        || target.minorNumber() >= cluster.get().minorNumber()) {
      return Optional.empty();
    }
    Optional<MemberObservation> tooNew = s.wanted().stream().filter(m -> m.podEtcdRelease()
        .filter(r -> r.minorNumber() - target.minorNumber() > 1).isPresent()).findFirst();
    if (tooNew.isPresent()) {
      return Optional.of(new Wait("spec.etcd.version to move one minor at a time: "
          + tooNew.get().name() + " still runs etcd " + tooNew.get().podEtcdRelease().get().minor()
          + ", and etcd cannot open its database two minors below"));
    }
    Optional<MemberObservation> via = s.readyLeader();
    return Optional.of(via.<RolloutAction>map(v -> new Downgrade(v.ordinal(),
            Downgraded.Action.ENABLE, target.minor(), EtcdDefaults.hasStore(s.etcd())
                ? OptionalInt.of(v.ordinal()) : OptionalInt.empty()))
        .orElseGet(() -> new Wait("a ready leader to enable etcd's downgrade to "
            + target.minor())));
  }

  /**
   * The member whose agent takes a full snapshot before {@code m} restarts: only for the first
   * member to run an upgraded minor, and only with a store (a downgrade took its snapshot before
   * it was enabled).
   */
  static OptionalInt snapshotFirst(ClusterSnapshot s, MemberObservation m) {
    EtcdRelease target = EtcdDefaults.etcdRelease(s.etcd());
    if (!EtcdDefaults.hasStore(s.etcd()) || m.podEtcdRelease().filter(target::equals).isPresent()
        || EtcdVersionView.of(s).downgradeTarget() != null
        || s.wanted().stream().anyMatch(w -> !w.podTerminating()
            && w.podEtcdRelease().filter(target::equals).isPresent())) {
      return OptionalInt.empty();
    }
    return s.readyLeader().map(l -> OptionalInt.of(l.ordinal())).orElse(OptionalInt.empty());
  }

  /**
   * Why {@code m} may not restart into the older minor of an enabled downgrade yet: etcd
   * migrates each member's database schema to the target after the downgrade is enabled, and
   * the older etcd cannot open a database of the newer schema (etcd 3.6 on a 3.7 one: "version
   * 3.7.0 is not supported"), so a member restarted before its migration would never start.
   * Empty when m does not move down or its database already has the target's schema.
   */
  static Optional<String> whyStorageNotMigrated(ClusterSnapshot s, MemberObservation m) {
    EtcdRelease target = EtcdDefaults.etcdRelease(s.etcd());
    if (!target.minor().equals(EtcdVersionView.of(s).downgradeTarget())
        || m.podEtcdRelease().filter(r -> r.minorNumber() > target.minorNumber()).isEmpty()) {
      return Optional.empty();
    }
    String storage = m.agent().map(a -> a.versions().storage()).orElse(null);
    return EtcdRelease.of(storage).filter(target::equals).isPresent() ? Optional.empty()
        : Optional.of("etcd to migrate the database of " + m.name() + " to " + target.minor()
            + " (its schema is " + (storage == null ? "not reported" : storage) + ")");
  }

  /** Why etcd is not yet where the spec asks, once every member runs the spec's etcd. */
  static Optional<String> whyNotReached(ClusterSnapshot s) {
    EtcdRelease target = EtcdDefaults.etcdRelease(s.etcd());
    EtcdVersions seen = EtcdVersionView.of(s);
    if (seen.downgradeTarget() != null) {
      return Optional.of("etcd to finish its downgrade to " + seen.downgradeTarget());
    }
    if (seen.cluster() == null) {
      return EtcdVersionView.reported(s)
          ? Optional.of("etcd's cluster version to be reported") : Optional.empty();
    }
    return EtcdRelease.of(seen.cluster()).filter(target::equals).isPresent() ? Optional.empty()
        : Optional.of("etcd's cluster version to reach " + target.minor() + " (it is "
            + seen.cluster() + ")");
  }
}
