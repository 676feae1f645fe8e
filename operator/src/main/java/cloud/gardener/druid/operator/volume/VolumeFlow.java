package cloud.gardener.druid.operator.volume;

import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_COMPLETED;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_REMOVING_MEMBERS;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_REPLACING;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_RESTORING;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_SNAPSHOTTED;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_SNAPSHOT_PENDING;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_VOLUMES_DELETED;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.TYPE_HIBERNATE_DELETE_VOLUMES;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.TYPE_RECOVER_FROM_QUORUM_LOSS;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.TYPE_REPLACE;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.TYPE_REPLACE_MEMBER_VOLUME;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.model.AgentArgs;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.rollout.ClusterHealth;
import cloud.gardener.druid.operator.rollout.RolloutAction;
import cloud.gardener.druid.operator.rollout.RolloutAction.CreatePods;
import cloud.gardener.druid.operator.rollout.RolloutAction.CreateVolumes;
import cloud.gardener.druid.operator.rollout.RolloutAction.DeleteMemberAndVolume;
import cloud.gardener.druid.operator.rollout.RolloutAction.DeleteMembers;
import cloud.gardener.druid.operator.rollout.RolloutAction.DeleteVolumes;
import cloud.gardener.druid.operator.rollout.RolloutAction.ExpandVolumes;
import cloud.gardener.druid.operator.rollout.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.rollout.RolloutAction.RecordVolumeOperation;
import cloud.gardener.druid.operator.rollout.RolloutAction.RemoveMember;
import cloud.gardener.druid.operator.rollout.RolloutAction.TakeFullSnapshot;
import cloud.gardener.druid.operator.rollout.RolloutAction.Wait;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Decides the next step of a volume change (SPEC §6). Every disruptive step is preceded by a
 * record of it in status.volumeOperation ({@link RecordVolumeOperation}), and every step is
 * derived again from the record plus a fresh observation, so an operator restart at any point
 * resumes the flow:
 *
 * <ul>
 *   <li><b>Replace</b> (spec change confirmed for the current generation) and
 *       <b>ReplaceMemberVolume</b> (task): a full snapshot first (SnapshotPending), then one
 *       member at a time (Replacing, currentMember): followers from the highest ordinal, the
 *       leader last after leadership moved; for each: stop it (pod deleted), remove it from
 *       etcd, delete its PVC, create both anew, the agent joins as a learner, promote; the next member only
 *       starts once the current one is a ready voting member. A single member restores from
 *       the snapshot instead.
 *   <li><b>HibernateDeleteVolumes</b>: final full snapshot, pods, then PVCs deleted
 *       (VolumesDeleted); waking restores member 0 alone from the store (Restoring), the
 *       others join it.
 *   <li><b>RecoverFromQuorumLoss</b> (task): every pod and PVC deleted (RemovingMembers),
 *       then restored as in waking.
 * </ul>
 *
 * <p>Pure: decisions depend on the snapshot only.
 */
public final class VolumeFlow {

  private final ClusterHealth health;

  public VolumeFlow(ClusterHealth health) {
    this.health = health;
  }

  /**
   * The next step of the operation in progress, if one is. Empty while the operation lets
   * the ordinary member creation and promotion proceed (members joining a restored member).
   */
  public Optional<RolloutAction> continueActive(ClusterSnapshot s) {
    Optional<VolumeOperation> active = s.volumes().active();
    if (active.isEmpty()) {
      return Optional.empty();
    }
    VolumeOperation op = active.get();
    return switch (op.getType()) {
      case TYPE_REPLACE, TYPE_REPLACE_MEMBER_VOLUME -> Optional.of(replacement(s, op));
      case TYPE_HIBERNATE_DELETE_VOLUMES -> s.replicas() == 0 ? Optional.empty() : restore(s, op);
      case TYPE_RECOVER_FROM_QUORUM_LOSS -> PHASE_REMOVING_MEMBERS.equals(op.getPhase())
          ? Optional.of(removeAll(s, op)) : restore(s, op);
      default -> Optional.of(record(s, op, PHASE_COMPLETED, "unknown volume operation "
          + op.getType() + " ended"));
    };
  }

  /**
   * Starts the volume task in progress (ahead of any other member work: a recovery task is
   * meant for a cluster that cannot heal by itself). Empty when there is none to start.
   */
  public Optional<RolloutAction> startTask(ClusterSnapshot s) {
    if (s.volumes().active().isPresent()) {
      return Optional.empty();
    }
    return s.volumes().task().filter(t -> !finishedFor(s, t)).map(t -> startTask(s, t));
  }

  /**
   * Starts a replacement of changed volumes once it is confirmed for the current generation;
   * empty when there is nothing to replace, it awaits confirmation, or a single member has no
   * store to restore from.
   */
  public Optional<RolloutAction> startReplacement(ClusterSnapshot s) {
    if (s.volumes().active().isPresent()
        || s.volumes().needing(VolumeChange.REPLACE).isEmpty()
        || !ReplacementConfirmation.isConfirmed(s.etcd())
        || (s.replicas() == 1 && !EtcdDefaults.hasStore(s.etcd()))) {
      return Optional.empty();
    }
    VolumeOperation op = newOperation(s, TYPE_REPLACE, null);
    op.setPhase(EtcdDefaults.hasStore(s.etcd()) ? PHASE_SNAPSHOT_PENDING : PHASE_SNAPSHOTTED);
    return Optional.of(new RecordVolumeOperation(op, "replacing volumes, confirmed for"
        + " generation " + op.getGeneration() + ": "
        + s.volumes().describe(VolumeChange.REPLACE, i -> s.members().get(i).name())));
  }

  /** Grows PVCs in place; restarts for a pending file system resize are ordinary updates. */
  public Optional<RolloutAction> grow(ClusterSnapshot s) {
    List<Integer> growing = s.volumes().needing(VolumeChange.GROW);
    return growing.isEmpty() ? Optional.empty() : Optional.of(new ExpandVolumes(growing));
  }

  /** A task whose operation is already recorded as finished is not started again. */
  private static boolean finishedFor(ClusterSnapshot s, VolumeTask task) {
    return s.volumes().recorded().filter(VolumeOperation::isFinished)
        .filter(op -> task.name().equals(op.getTask())).isPresent();
  }

  private RolloutAction startTask(ClusterSnapshot s, VolumeTask task) {
    if (TYPE_RECOVER_FROM_QUORUM_LOSS.equals(task.type())) {
      VolumeOperation op = newOperation(s, TYPE_RECOVER_FROM_QUORUM_LOSS, task.name());
      op.setPhase(PHASE_REMOVING_MEMBERS);
      return new RecordVolumeOperation(op, "recovering from quorum loss (task " + task.name()
          + "): every member is deleted and the cluster restored from the backup store");
    }
    VolumeOperation op = newOperation(s, TYPE_REPLACE_MEMBER_VOLUME, task.name());
    op.setPhase(EtcdDefaults.hasStore(s.etcd()) ? PHASE_SNAPSHOT_PENDING : PHASE_SNAPSHOTTED);
    return new RecordVolumeOperation(op, "replacing the volume of "
        + task.member().orElse("?") + " (task " + task.name() + ")");
  }

  private static VolumeOperation newOperation(ClusterSnapshot s, String type, String task) {
    VolumeOperation op = new VolumeOperation();
    op.setType(type);
    op.setTask(task);
    op.setGeneration(s.etcd().getMetadata().getGeneration());
    op.setStartedAt(s.observedAt().toString());
    op.setCompletedMembers(List.of());
    return op;
  }

  // ---------------------------------------------------------------- replacement

  private RolloutAction replacement(ClusterSnapshot s, VolumeOperation op) {
    if (PHASE_SNAPSHOT_PENDING.equals(op.getPhase())) {
      return snapshotFirst(s, op);
    }
    if (op.getCurrentMember() != null) {
      Optional<MemberObservation> current = s.wanted().stream()
          .filter(m -> m.name().equals(op.getCurrentMember())).findFirst();
      if (current.isEmpty()) {
        return record(s, op, PHASE_REPLACING, op.getCurrentMember()
            + " is no longer a wanted member", op.getCurrentMember());
      }
      MemberObservation m = current.get();
      return replaced(s, op, m) ? record(s, op, PHASE_REPLACING, "the volume of " + m.name()
          + " is replaced and the member is in sync", m.name()) : memberStep(s, op, m);
    }
    List<MemberObservation> todo = toReplace(s, op);
    if (todo.isEmpty()) {
      return record(s, op, PHASE_COMPLETED, "volumes replaced: "
          + String.join(", ", completed(op)));
    }
    return nextMember(s, op, todo);
  }

  private RolloutAction snapshotFirst(ClusterSnapshot s, VolumeOperation op) {
    Optional<MemberObservation> leader = s.leader().filter(MemberObservation::ready);
    if (leader.isEmpty()) {
      return new Wait("a ready leader to take the full snapshot before volumes are replaced");
    }
    VolumeOperation then = copy(op);
    then.setPhase(PHASE_SNAPSHOTTED);
    return new TakeFullSnapshot(leader.get().ordinal(), then);
  }

  /** Members whose volume this operation still has to replace, in roll order. */
  private List<MemberObservation> toReplace(ClusterSnapshot s, VolumeOperation op) {
    if (TYPE_REPLACE_MEMBER_VOLUME.equals(op.getType())) {
      String member = s.volumes().task().filter(t -> t.name().equals(op.getTask()))
          .flatMap(VolumeTask::member).orElse(null);
      return s.wanted().stream().filter(m -> m.name().equals(member))
          .filter(m -> !completed(op).contains(m.name())).toList();
    }
    boolean stillConfirmed = op.getGeneration() != null
        && op.getGeneration().equals(s.etcd().getMetadata().getGeneration())
        || ReplacementConfirmation.isConfirmed(s.etcd());
    if (!stillConfirmed) {
      return List.of();
    }
    return s.wanted().stream()
        .filter(m -> s.volumes().change(m.ordinal()) == VolumeChange.REPLACE)
        .toList();
  }

  private RolloutAction nextMember(ClusterSnapshot s, VolumeOperation op,
      List<MemberObservation> todo) {
    boolean single = s.wanted().size() == 1;
    if (!single) {
      Optional<String> unsafe = TYPE_REPLACE_MEMBER_VOLUME.equals(op.getType())
          ? othersInSync(s, todo.get(0)) : health.whyNotSafeToRoll(s);
      if (unsafe.isPresent()) {
        return new Wait(unsafe.get() + "; the next volume is replaced once the cluster is in sync");
      }
    }
    List<MemberObservation> ordered = todo.stream()
        .sorted(Comparator.comparing((MemberObservation m) -> isLeader(m))
            .thenComparing(Comparator.comparingInt(MemberObservation::ordinal).reversed()))
        .toList();
    MemberObservation next = ordered.get(0);
    if (!single && isLeader(next)) {
      Optional<MemberObservation> target = s.wanted().stream()
          .filter(m -> m != next && m.ready() && m.agent().map(a -> !a.isLearner()).orElse(false))
          .findFirst();
      if (target.isPresent()) {
        return new MoveLeader(next.ordinal(), next.name(),
            target.get().agent().orElseThrow().memberId(), target.get().name());
      }
    }
    VolumeOperation then = copy(op);
    then.setPhase(PHASE_REPLACING);
    then.setCurrentMember(next.name());
    return new RecordVolumeOperation(then, "replacing the volume of " + next.name()
        + (single ? " (restores from the full snapshot"
            + (op.getSnapshotRevision() == null ? "" : " at revision " + op.getSnapshotRevision())
            + ")" : " (removed from etcd, recreated, rejoins as a learner)"));
  }

  /** Every member except {@code target} is ready, voting and answers (a replaced disk may not). */
  private static Optional<String> othersInSync(ClusterSnapshot s, MemberObservation target) {
    for (MemberObservation m : s.wanted()) {
      if (m == target) {
        continue;
      }
      if (!m.ready() || m.agent().map(a -> !a.healthy() || a.isLearner()).orElse(true)) {
        return Optional.of(m.name() + " is not a ready, healthy voting member");
      }
    }
    return Optional.empty();
  }

  /**
   * One step of replacing {@code m}'s volume; never touches another member. The member is
   * stopped first (its pod deleted: etcd shuts down gracefully and clients move to the
   * others, which a removal from the membership would cut off abruptly), then removed from
   * etcd, then its old claim goes, and it is created anew.
   */
  private RolloutAction memberStep(ClusterSnapshot s, VolumeOperation op, MemberObservation m) {
    boolean single = s.wanted().size() == 1;
    boolean old = m.pvc().isPresent() && isOld(s, op, m);
    if (old && m.podExists() && !m.podTerminating()) {
      return new DeleteMemberAndVolume(m.ordinal(), m.name(),
          m.pvc().get().getMetadata().getName(), "volume replacement");
    }
    if (m.podTerminating()) {
      return new Wait(m.name() + " to terminate");
    }
    if (!single && !m.podExists()) {
      Optional<RolloutAction> removal = removeFromEtcd(s, m);
      if (removal.isPresent()) {
        return removal.get();
      }
    }
    if (old) {
      String pvcName = m.pvc().get().getMetadata().getName();
      return m.pvc().get().getMetadata().getDeletionTimestamp() == null
          ? new DeleteMemberAndVolume(m.ordinal(), m.name(), pvcName, "volume replacement")
          : new Wait("the old volume " + pvcName + " of " + m.name() + " to be deleted");
    }
    if (m.pvc().isEmpty()) {
      return new CreateVolumes(List.of(m.ordinal()));
    }
    if (!m.podExists()) {
      return new CreatePods(List.of(m.ordinal()), single
          ? "restoring from the backup store on its new volume"
          : "rejoining as a learner on its new volume");
    }
    Optional<RolloutAction> promotion = promote(s, m);
    return promotion.orElseGet(() -> new Wait(m.name() + " to "
        + (single ? "restore and become ready" : "join, catch up and become ready")));
  }

  /** The member's PVC predates this operation (and must be replaced). */
  private static boolean isOld(ClusterSnapshot s, VolumeOperation op, MemberObservation m) {
    if (s.volumes().change(m.ordinal()) == VolumeChange.REPLACE) {
      return true;
    }
    if (!TYPE_REPLACE_MEMBER_VOLUME.equals(op.getType())) {
      return false;
    }
    return createdBefore(m.pvc().get().getMetadata().getCreationTimestamp(), op.getStartedAt());
  }

  static boolean createdBefore(String created, String startedAt) {
    if (created == null || startedAt == null) {
      return false;
    }
    Instant start = Instant.parse(startedAt).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    return Instant.parse(created).isBefore(start);
  }

  /** Removes {@code m} from the etcd membership through another ready voting member. */
  private static Optional<RolloutAction> removeFromEtcd(ClusterSnapshot s, MemberObservation m) {
    Optional<MemberObservation> via = votingPeer(s, m);
    if (via.isEmpty()) {
      return Optional.of(new Wait("a ready voting member through which " + m.name()
          + " can be removed from etcd"));
    }
    return via.get().agent().orElseThrow().members().stream()
        .filter(x -> x.name().equals(m.name())).findFirst()
        .map(x -> new RemoveMember(m.ordinal(), m.name(), x.id(), via.get().ordinal()));
  }

  private static Optional<RolloutAction> promote(ClusterSnapshot s, MemberObservation m) {
    Optional<MemberObservation> via = votingPeer(s, m);
    return via.flatMap(v -> v.agent().orElseThrow().members().stream()
        .filter(x -> x.name().equals(m.name()) && x.learner()).findFirst()
        .map(x -> new RolloutAction.PromoteLearner(m.ordinal(), m.name(), x.id(), v.ordinal())));
  }

  private static Optional<MemberObservation> votingPeer(ClusterSnapshot s, MemberObservation m) {
    return s.wanted().stream().filter(w -> w != m && w.ready())
        .filter(w -> w.agent().map(a -> a.healthy() && !a.isLearner()).orElse(false))
        .sorted(Comparator.comparing((MemberObservation w) -> !isLeader(w)))
        .findFirst();
  }

  /** The member runs on a new volume, is ready and votes. */
  private static boolean replaced(ClusterSnapshot s, VolumeOperation op, MemberObservation m) {
    if (m.pvc().isEmpty() || isOld(s, op, m) || !m.ready() || m.agent().isEmpty()) {
      return false;
    }
    if (s.wanted().size() == 1) {
      return true;
    }
    Optional<MemberObservation> via = votingPeer(s, m);
    return !m.agent().get().isLearner() && via.isPresent() && via.get().agent().get().members()
        .stream().anyMatch(x -> x.name().equals(m.name()) && !x.learner());
  }

  // ---------------------------------------------------------------- hibernation

  /** Recorded once the final full snapshot of a hibernation that deletes volumes succeeded. */
  public VolumeOperation hibernationRecord(ClusterSnapshot s) {
    VolumeOperation op = newOperation(s, TYPE_HIBERNATE_DELETE_VOLUMES, null);
    op.setPhase(PHASE_SNAPSHOTTED);
    return op;
  }

  /**
   * With every pod gone: deletes the volumes, but only after a final full snapshot of this
   * hibernation was recorded (a hibernation without one keeps its volumes).
   */
  public Optional<RolloutAction> deleteVolumesAfterHibernation(ClusterSnapshot s) {
    Optional<VolumeOperation> snapshotted = s.volumes().active()
        .filter(op -> TYPE_HIBERNATE_DELETE_VOLUMES.equals(op.getType()))
        .filter(op -> PHASE_SNAPSHOTTED.equals(op.getPhase()));
    if (snapshotted.isEmpty()) {
      return Optional.empty();
    }
    VolumeOperation deleted = copy(snapshotted.get());
    deleted.setPhase(PHASE_VOLUMES_DELETED);
    List<String> pvcs = s.members().stream().flatMap(m -> m.pvc().stream())
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .map(p -> p.getMetadata().getName()).toList();
    if (!pvcs.isEmpty()) {
      return Optional.of(new DeleteVolumes(pvcs, deleted));
    }
    return Optional.of(s.members().stream().anyMatch(m -> m.pvc().isPresent())
        ? new Wait("member volumes to be deleted")
        : new RecordVolumeOperation(deleted, "hibernated: every volume is deleted;"
            + " waking up restores from the backup store"));
  }

  // ---------------------------------------------------------------- restore from the store

  private RolloutAction removeAll(ClusterSnapshot s, VolumeOperation op) {
    List<Integer> running = s.members().stream()
        .filter(m -> m.podExists() && !m.podTerminating()).map(MemberObservation::ordinal).toList();
    if (!running.isEmpty()) {
      return new DeleteMembers(running, "recovering from quorum loss");
    }
    if (s.members().stream().anyMatch(MemberObservation::podExists)) {
      return new Wait("member pods to terminate");
    }
    VolumeOperation then = copy(op);
    then.setPhase(PHASE_VOLUMES_DELETED);
    List<String> pvcs = s.members().stream().flatMap(m -> m.pvc().stream())
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .map(p -> p.getMetadata().getName()).toList();
    if (!pvcs.isEmpty()) {
      return new DeleteVolumes(pvcs, then);
    }
    if (s.members().stream().anyMatch(m -> m.pvc().isPresent())) {
      return new Wait("member volumes to be deleted");
    }
    return new RecordVolumeOperation(then, "every member and volume is deleted;"
        + " restoring from the backup store");
  }

  /** Member 0 alone restores from the store; the others join it as ordinary new members. */
  private Optional<RolloutAction> restore(ClusterSnapshot s, VolumeOperation op) {
    if (TYPE_HIBERNATE_DELETE_VOLUMES.equals(op.getType())
        && PHASE_SNAPSHOTTED.equals(op.getPhase())) {
      return Optional.of(wokenBeforeVolumesWereDeleted(s, op));
    }
    if (PHASE_VOLUMES_DELETED.equals(op.getPhase())) {
      return Optional.of(record(s, op, PHASE_RESTORING, "restoring member "
          + s.members().get(0).name() + " from the backup store"));
    }
    if (!PHASE_RESTORING.equals(op.getPhase())) {
      return Optional.of(new Wait("volume operation " + op.getType() + " in phase "
          + op.getPhase()));
    }
    MemberObservation first = s.members().get(0);
    if (first.pvc().isEmpty()) {
      return Optional.of(new CreateVolumes(List.of(0)));
    }
    boolean othersVote = s.wanted().stream().anyMatch(m -> m != first && m.ready()
        && m.agent().map(a -> a.healthy() && !a.isLearner()).orElse(false));
    if (!first.podExists()) {
      return Optional.of(othersVote
          ? new CreatePods(List.of(0), "restarted as one of " + s.wanted().size() + " members")
          : new CreatePods(List.of(0), "restoring from the backup store", true));
    }
    if (!first.ready()) {
      return Optional.of(new Wait(first.name() + " to restore from the backup store"));
    }
    boolean complete = s.wanted().stream().allMatch(m -> m.ready()
        && m.agent().map(a -> !a.isLearner()).orElse(false))
        && s.votingMembers() == s.wanted().size();
    if (!complete) {
      return Optional.empty();
    }
    if (s.wanted().size() > 1 && startedAlone(first)) {
      return Optional.of(restartAsMember(s, first));
    }
    return Optional.of(record(s, op, PHASE_COMPLETED, "restored from the backup store with "
        + s.wanted().size() + " members"));
  }

  /**
   * Woken up before every volume was deleted: with all volumes there the hibernation simply
   * ends; with some gone, the rest go too, so that all members restore from one snapshot.
   */
  private static RolloutAction wokenBeforeVolumesWereDeleted(ClusterSnapshot s,
      VolumeOperation op) {
    boolean allThere = s.members().stream().allMatch(m -> m.pvc().isPresent());
    if (allThere) {
      return record(s, op, PHASE_COMPLETED, "woken up before the volumes were deleted;"
          + " they are kept");
    }
    VolumeOperation deleted = copy(op);
    deleted.setPhase(PHASE_VOLUMES_DELETED);
    List<String> pvcs = s.members().stream().flatMap(m -> m.pvc().stream())
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .map(p -> p.getMetadata().getName()).toList();
    if (!pvcs.isEmpty()) {
      return new DeleteVolumes(pvcs, deleted);
    }
    return s.members().stream().anyMatch(m -> m.pvc().isPresent())
        ? new Wait("member volumes to be deleted")
        : new RecordVolumeOperation(deleted, "every volume is deleted");
  }

  /**
   * A member started alone keeps {@code --replicas=1} in its pod; should it ever start without
   * data again it would restore alone instead of joining. Once the others vote, it is
   * restarted (leadership moved off it first) to run with the cluster's size.
   */
  private static RolloutAction restartAsMember(ClusterSnapshot s, MemberObservation first) {
    if (isLeader(first)) {
      Optional<MemberObservation> target = votingPeer(s, first);
      if (target.isPresent()) {
        return new MoveLeader(first.ordinal(), first.name(),
            target.get().agent().orElseThrow().memberId(), target.get().name());
      }
    }
    return new RolloutAction.RestartMember(first.ordinal(), first.name(),
        "started alone to restore from the store; now one of " + s.wanted().size());
  }

  private static boolean startedAlone(MemberObservation m) {
    String alone = AgentArgs.bootstrapReplicas(1);
    return m.pod().filter(p -> p.getSpec() != null).map(p -> p.getSpec().getContainers().stream()
        .anyMatch(c -> c.getArgs() != null && c.getArgs().contains(alone))).orElse(false);
  }

  // ---------------------------------------------------------------- records

  private static RolloutAction record(ClusterSnapshot s, VolumeOperation op, String phase,
      String reason) {
    return record(s, op, phase, reason, null);
  }

  /** Records {@code phase}; {@code finishedMember} moves from current to completed. */
  private static RolloutAction record(ClusterSnapshot s, VolumeOperation op, String phase,
      String reason, String finishedMember) {
    VolumeOperation then = copy(op);
    then.setPhase(phase);
    if (finishedMember != null) {
      List<String> done = new ArrayList<>(completed(op));
      if (!done.contains(finishedMember)) {
        done.add(finishedMember);
      }
      then.setCompletedMembers(List.copyOf(done));
      then.setCurrentMember(null);
    }
    return new RecordVolumeOperation(then, reason);
  }

  private static List<String> completed(VolumeOperation op) {
    return op.getCompletedMembers() == null ? List.of() : op.getCompletedMembers();
  }

  private static boolean isLeader(MemberObservation m) {
    return m.agent().map(AgentView::isLeader).orElse(false);
  }

  static VolumeOperation copy(VolumeOperation op) {
    VolumeOperation c = new VolumeOperation();
    c.setType(op.getType());
    c.setTask(op.getTask());
    c.setGeneration(op.getGeneration());
    c.setPhase(op.getPhase());
    c.setSnapshotRevision(op.getSnapshotRevision());
    c.setCurrentMember(op.getCurrentMember());
    c.setCompletedMembers(op.getCompletedMembers());
    c.setStartedAt(op.getStartedAt());
    return c;
  }
}
