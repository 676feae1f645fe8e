package cloud.gardener.druid.operator.rollout;

import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.operator.observe.ClusterHealth;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RestartReason;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.model.TrustedCas;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.action.RolloutAction.CreatePods;
import cloud.gardener.druid.operator.action.RolloutAction.CreateVolumes;
import cloud.gardener.druid.operator.action.RolloutAction.DeleteSurplusMember;
import cloud.gardener.druid.operator.action.RolloutAction.Done;
import cloud.gardener.druid.operator.action.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.action.RolloutAction.PromoteLearner;
import cloud.gardener.druid.operator.action.RolloutAction.RemoveMember;
import cloud.gardener.druid.operator.action.RolloutAction.RestartMember;
import cloud.gardener.druid.operator.action.RolloutAction.UpdateMemberMetadata;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.volume.VolumeChanges;
import cloud.gardener.druid.operator.volume.VolumeFlow;
import cloud.gardener.druid.operator.model.EtcdConfigMapBuilder;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Decides the next step of a quorum-aware roll:
 *
 * <ol>
 *   <li>hibernation ({@code replicas: 0}): a final full snapshot through the leader, then every
 *       member pod is deleted; with {@code hibernation.deleteVolumes} and a store, then every
 *       volume (only after that final snapshot succeeded);
 *   <li>a volume operation in progress ({@link VolumeFlow}) takes precedence over everything
 *       below, and so does the start of a volume task (a recovery is meant for a cluster that
 *       cannot heal by itself);
 *   <li>create missing volumes of wanted members;
 *   <li>promote a learner that is ready (etcd admits one learner at a time);
 *   <li>joining an existing cluster: start members one at a time, each once the ones before
 *       vote ({@link ExistingClusterSteps});
 *   <li>bootstrap: with no member pod at all, create every wanted pod at once (etcd needs the
 *       initial members together);
 *   <li>start missing pods: all at once when quorum is lost anyway, else one at a time, and
 *       only while every other member is ready: a member etcd still lists is restarted (the
 *       create half of a {@link RestartMember}: it rejoins as itself on its volume), a new one
 *       is created and joins as a learner;
 *   <li>scale-in: remove the highest surplus member from etcd, then delete its pod and volume;
 *   <li>start a confirmed volume replacement, then grow volumes in place;
 *   <li>apply changed labels and annotations of the spec to the running pods in place;
 *   <li>continue a restart whose pod is still terminating ({@link RestartMember} again for
 *       that member) while the others keep quorum;
 *   <li>update outdated members one at a time (a pending file system resize counts as
 *       outdated: the restart completes it): a member that is not ready first (it does not
 *       count toward quorum), then, only while the cluster is healthy and in sync, in roll
 *       order ({@link ClusterSnapshot#rollOrder}): followers from the highest ordinal down,
 *       the leader last, after leadership was moved to an updated member; a change of the
 *       etcd minor takes a full snapshot first, and a downgrade enables etcd's downgrade
 *       before any member restarts ({@link EtcdVersionChange});
 *   <li>after joining an existing cluster, with a backup store: leadership to a member of this
 *       Etcd ({@link ExistingClusterSteps#takeLeadership});
 *   <li>done, once this observation saw every wanted member vote and etcd's cluster version is
 *       the spec's minor ({@link EtcdVersionChange}); until then wait for the first that does
 *       not (its agent silent, unhealthy, or still a learner).
 * </ol>
 *
 * <p>Pure: the decision depends on the snapshot and the desired members only; the caller
 * executes it and observes again.
 */
public final class MemberRollout {

  private final ClusterHealth health;
  private final VolumeFlow volumes;

  public MemberRollout(ClusterHealth health) {
    this.health = health;
    this.volumes = new VolumeFlow(health);
  }

  public RolloutAction next(ClusterSnapshot s, DesiredMembers desired) {
    return next(s, desired, VolumeChanges.of(s, desired));
  }

  /** {@link #next(ClusterSnapshot, DesiredMembers)} with the volume changes already decided. */
  public RolloutAction next(ClusterSnapshot s, DesiredMembers desired, VolumeChanges changes) {
    if (s.replicas() == 0) {
      return hibernate(s);
    }
    Optional<RolloutAction> volumeStep = volumes.continueActive(s, changes)
        .or(() -> volumes.startTask(s));
    if (volumeStep.isPresent()) {
      return volumeStep.get();
    }
    List<Integer> missingVolumes = s.wanted().stream().filter(m -> m.pvc().isEmpty())
        .map(MemberObservation::ordinal).toList();
    if (!missingVolumes.isEmpty()) {
      return new CreateVolumes(missingVolumes);
    }
    return promoteLearner(s)
        .or(() -> createPods(s))
        .or(() -> scaleIn(s))
        .or(() -> volumes.startReplacement(s, changes))
        .or(() -> volumes.grow(changes))
        .or(() -> updateMetadata(s, desired))
        .or(() -> EtcdVersionChange.cancelUnwanted(s))
        .or(() -> update(s, desired))
        .or(() -> ExistingClusterSteps.takeLeadership(s))
        .orElseGet(() -> finished(s));
  }

  /**
   * Nothing is left to change; the rollout is done only when this same observation saw every
   * wanted member vote (pod ready, agent answering with a healthy etcd, not a learner), so that
   * "done" is never written from an observation that could not see a member's state.
   */
  private static RolloutAction finished(ClusterSnapshot s) {
    if (s.volumes().active().isPresent()) {
      return new Wait("the volume operation " + s.volumes().active().get().getType() + " to finish");
    }
    return s.whyNotAllVote(null).or(() -> EtcdVersionChange.whyNotReached(s))
        .<RolloutAction>map(Wait::new).orElseGet(Done::new);
  }

  private RolloutAction hibernate(ClusterSnapshot s) {
    boolean deleteVolumes = EtcdDefaults.deleteVolumesOnHibernation(s.etcd())
        && EtcdDefaults.hasStore(s.etcd());
    List<Integer> running = s.members().stream().filter(m -> m.podExists() && !m.podTerminating())
        .map(MemberObservation::ordinal).toList();
    if (!running.isEmpty()) {
      OptionalInt via = EtcdDefaults.hasStore(s.etcd())
          ? s.readyLeader().map(m -> OptionalInt.of(m.ordinal())).orElse(OptionalInt.empty())
          : OptionalInt.empty();
      Optional<VolumeOperation> record = deleteVolumes && via.isPresent()
          ? Optional.of(volumes.hibernationRecord(s)) : Optional.empty();
      return new RolloutAction.Hibernate(running, via, record);
    }
    if (s.members().stream().anyMatch(MemberObservation::podExists)) {
      return new Wait("member pods to terminate");
    }
    return deleteVolumes ? volumes.deleteVolumesAfterHibernation(s).orElseGet(Done::new)
        : new Done();
  }

  private Optional<RolloutAction> createPods(ClusterSnapshot s) {
    List<MemberObservation> missing = s.wanted().stream().filter(m -> !m.podExists()).toList();
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    Optional<RolloutAction> joining = ExistingClusterSteps.startWhileJoining(s, missing);
    if (joining.isPresent()) {
      return joining;
    }
    List<Integer> ordinals = missing.stream().map(MemberObservation::ordinal).toList();
    boolean noPods = s.members().stream().noneMatch(MemberObservation::podExists);
    if (noPods) {
      boolean ranBefore = s.etcd().getStatus() != null
          && s.etcd().getStatus().getObservedGeneration() != null;
      return Optional.of(new CreatePods(ordinals, ranBefore
          ? "starting every member on its volume" : "bootstrapping the cluster"));
    }
    if (s.readyMembers() < s.quorum()) {
      return Optional.of(new CreatePods(ordinals, "quorum is lost, starting every member"));
    }
    Optional<MemberObservation> notReady = s.members().stream()
        .filter(m -> m.podExists() && !m.ready()).findFirst();
    if (notReady.isPresent()) {
      return Optional.of(new Wait(notReady.get().name() + " to become ready before starting "
          + missing.get(0).name()));
    }
    MemberObservation next = missing.get(0);
    return Optional.of(keepsItsPlace(s, next)
        ? new RestartMember(next.ordinal(), next.name(), RestartReason.POD_DELETED)
        : new CreatePods(List.of(next.ordinal()), "one member at a time"));
  }

  /**
   * The member is still in the etcd membership a voting peer reports: its pod went (our restart
   * or anything else), not the member; starting it again is a restart, not a new member.
   */
  private static boolean keepsItsPlace(ClusterSnapshot s, MemberObservation m) {
    return s.votingPeer(m).flatMap(MemberObservation::agent)
        .map(a -> a.members().stream().anyMatch(x -> m.name().equals(x.name())))
        .orElse(false);
  }

  /**
   * A learner is found in the membership a ready voting member reports, and promoted through
   * that member once its pod runs; etcd refuses until the learner has caught up, and the next
   * observation tries again.
   */
  private Optional<RolloutAction> promoteLearner(ClusterSnapshot s) {
    Optional<MemberObservation> via = s.readyLeader()
        .or(() -> s.members().stream().filter(MemberObservation::votes).findFirst());
    if (via.isEmpty()) {
      return Optional.empty();
    }
    for (Membership entry : via.get().agent().orElseThrow().members()) {
      if (!entry.learner()) {
        continue;
      }
      Optional<MemberObservation> learner = s.members().stream()
          .filter(m -> m.name().equals(entry.name()) && m.podExists() && !m.podTerminating())
          .findFirst();
      if (learner.isPresent()) {
        return Optional.of(new PromoteLearner(learner.get().ordinal(), learner.get().name(),
            entry.id(), via.get().ordinal()));
      }
    }
    return Optional.empty();
  }

  private Optional<RolloutAction> scaleIn(ClusterSnapshot s) {
    Optional<MemberObservation> highest = s.surplus().stream()
        .max(Comparator.comparingInt(MemberObservation::ordinal));
    if (highest.isEmpty()) {
      return Optional.empty();
    }
    MemberObservation m = highest.get();
    Optional<MemberObservation> via = s.wanted().stream().filter(MemberObservation::votes)
        .findFirst();
    if (via.isEmpty()) {
      return Optional.of(new Wait("a ready member through which " + m.name() + " can be removed"));
    }
    Optional<Membership> membership = via.get().agent().get().members().stream()
        .filter(x -> m.name().equals(x.name())).findFirst();
    if (membership.isPresent()) {
      return Optional.of(new RemoveMember(m.ordinal(), m.name(), membership.get().id(),
          via.get().ordinal()));
    }
    return Optional.of(new DeleteSurplusMember(m.ordinal(), m.name()));
  }

  /** Every running pod whose labels and annotations differ from the spec's, at once. */
  private static Optional<RolloutAction> updateMetadata(ClusterSnapshot s,
      DesiredMembers desired) {
    List<MemberObservation> stale = s.wanted().stream()
        .filter(m -> m.podExists() && !m.podTerminating())
        .filter(m -> !m.metadataUpdated(desired.metadataRevision())).toList();
    return stale.isEmpty() ? Optional.empty() : Optional.of(new UpdateMemberMetadata(
        stale.stream().map(MemberObservation::ordinal).toList(),
        stale.stream().map(MemberObservation::name).toList()));
  }

  private Optional<RolloutAction> update(ClusterSnapshot s, DesiredMembers desired) {
    Optional<MemberObservation> terminating = s.wanted().stream()
        .filter(MemberObservation::podTerminating).findFirst();
    if (terminating.isPresent()) {
      // without quorum the missing members start together once their pods are gone
      MemberObservation m = terminating.get();
      return Optional.of(s.readyMembers() >= s.quorum()
          ? new RestartMember(m.ordinal(), m.name(), reasons(s, desired, m))
          : new Wait("member pods to terminate"));
    }
    List<MemberObservation> outdated = s.wanted().stream()
        .filter(MemberObservation::podExists)
        .filter(m -> !m.podUpdated(desired.podRevision()) || m.fileSystemResizePending())
        .sorted(Comparator.comparingInt(MemberObservation::ordinal).reversed())
        .toList();
    if (outdated.isEmpty()) {
      return Optional.empty();
    }
    Optional<RolloutAction> downgrade = EtcdVersionChange.protocolStep(s);
    if (downgrade.isPresent()) {
      return downgrade;
    }
    Optional<MemberObservation> notReady = outdated.stream().filter(m -> !m.ready()).findFirst();
    if (notReady.isPresent()) {
      MemberObservation m = notReady.get();
      Optional<String> unmigrated = EtcdVersionChange.whyStorageNotMigrated(s, m);
      if (unmigrated.isPresent()) {
        return Optional.of(new Wait(unmigrated.get()));
      }
      EnumSet<RestartReason> reasons = reasons(s, desired, m);
      reasons.add(RestartReason.NOT_READY);
      return Optional.of(new RestartMember(m.ordinal(), m.name(), reasons,
          EtcdVersionChange.snapshotFirst(s, m)));
    }
    Optional<String> unsafe = health.whyNotSafeToRoll(s);
    if (unsafe.isPresent()) {
      return Optional.of(new Wait(unsafe.get()));
    }
    MemberObservation next = ClusterSnapshot.rollOrder(outdated).get(0);
    if (next.isLeader()) {
      Optional<MemberObservation> target = s.leadershipTarget(next,
          m -> m.podUpdated(desired.podRevision()));
      if (target.isPresent()) {
        return Optional.of(new MoveLeader(next.ordinal(), next.name(),
            target.get().agent().orElseThrow().memberId(), target.get().name()));
      }
    }
    Optional<String> unmigrated = EtcdVersionChange.whyStorageNotMigrated(s, next);
    if (unmigrated.isPresent()) {
      return Optional.of(new Wait(unmigrated.get()));
    }
    return Optional.of(new RestartMember(next.ordinal(), next.name(), reasons(s, desired, next),
        EtcdVersionChange.snapshotFirst(s, next)));
  }

  /**
   * Every reason {@code m} restarts, from what its pod shows (also while it terminates): a
   * revision other than the desired one is a spec change, named more precisely where the pod
   * shows what (the etcd configuration's checksum, the peer URL scheme); a pending file system
   * resize; a pod deleted while it already runs the desired spec.
   */
  private static EnumSet<RestartReason> reasons(ClusterSnapshot s, DesiredMembers desired,
      MemberObservation m) {
    EnumSet<RestartReason> reasons = EnumSet.noneOf(RestartReason.class);
    if (m.podRevision().filter(desired.podRevision()::equals).isEmpty()) {
      reasons.add(RestartReason.SPEC_CHANGED);
      if (m.runsPeerTls() != EtcdDefaults.peerTls(s.etcd())) {
        reasons.add(RestartReason.PEER_URL_CHANGED);
      }
      if (!EtcdConfigMapBuilder.checksum(s.etcd()).equals(m.configChecksum().orElse(null))) {
        reasons.add(RestartReason.ETCD_CONFIG_CHANGED);
      }
      if (m.podQuotaBytes().filter(q -> q != EtcdDefaults.quotaBytes(s.etcd())).isPresent()) {
        reasons.add(RestartReason.QUOTA_CHANGED);
      }
      if (m.podEtcdRelease().filter(EtcdDefaults.etcdRelease(s.etcd())::equals).isEmpty()) {
        reasons.add(RestartReason.ETCD_VERSION_CHANGED);
      }
      if (TrustedCas.changed(m.trustedCaChecksum(), TrustedCas.of(s.etcd()))) {
        reasons.add(RestartReason.CERTIFICATE_CHANGED);
      }
    }
    if (m.fileSystemResizePending()) {
      reasons.add(RestartReason.FILE_SYSTEM_RESIZE);
    }
    if (reasons.isEmpty()) {
      reasons.add(RestartReason.POD_DELETED);
    }
    return reasons;
  }

}
