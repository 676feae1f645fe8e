package cloud.gardener.druid.operator.action;

import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The one next step a roll through an Etcd's members takes, executed, then observed again:
 * the rollout's ({@code rollout.MemberRollout}, {@code volume.VolumeFlow}) and an on-demand
 * defragmentation's ({@code task.DefragmentPlan}), one family executed by one executor.
 */
public sealed interface RolloutAction {

  /** Human-readable description, used in events and lastOperation. */
  String describe();

  /** Calls the method of {@code handler} for this action's type. */
  <R> R accept(Handler<R> handler);

  /**
   * Handles every action type: an action added without a method here does not compile, and
   * neither does a handler that misses one.
   */
  interface Handler<R> {
    R done(Done action);

    R waiting(Wait action);

    R createVolumes(CreateVolumes action);

    R createPods(CreatePods action);

    R restartMember(RestartMember action);

    R downgrade(Downgrade action);

    R updateMemberMetadata(UpdateMemberMetadata action);

    R moveLeader(MoveLeader action);

    R promoteLearner(PromoteLearner action);

    R hibernate(Hibernate action);

    R removeMember(RemoveMember action);

    R deleteSurplusMember(DeleteSurplusMember action);

    R recordVolumeOperation(RecordVolumeOperation action);

    R takeFullSnapshot(TakeFullSnapshot action);

    R deleteMemberAndVolume(DeleteMemberAndVolume action);

    R deleteMembers(DeleteMembers action);

    R deleteVolumes(DeleteVolumes action);

    R expandVolumes(ExpandVolumes action);

    R defragment(Defragment action);

    R takeLeadership(TakeLeadership action);

    R removeSourceMember(RemoveSourceMember action);
  }

  /**
   * Member {@code name} of this Etcd takes etcd leadership from {@code fromName}, a member of
   * the existing cluster it joined: asked through its own agent, which asks the leader.
   */
  record TakeLeadership(int ordinal, String name, String memberId, String fromName)
      implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.takeLeadership(this);
    }

    public String describe() {
      return "moving leadership from " + fromName + " (existing cluster) to " + name;
    }
  }

  /**
   * Retiring the existing cluster this Etcd joined: remove its member {@code name} from the
   * etcd membership through a voting member of this Etcd; nothing of its process is touched.
   */
  record RemoveSourceMember(String name, String memberId, int viaOrdinal)
      implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.removeSourceMember(this);
    }

    public String describe() {
      return "removing member " + name + " of the existing cluster from the etcd membership";
    }
  }

  /** Nothing to do: every member is as desired. */
  record Done() implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.done(this);
    }

    public String describe() {
      return "all members are up to date";
    }
  }

  /** Nothing to do now; the next observation decides (e.g. a member is catching up). */
  record Wait(String reason) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.waiting(this);
    }

    public String describe() {
      return "waiting: " + reason;
    }
  }

  record CreateVolumes(List<Integer> ordinals) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.createVolumes(this);
    }

    public String describe() {
      return "creating volumes of members " + ordinals;
    }
  }

  /**
   * Create member pods of members that are new to etcd or start together: bootstrap, scale-out
   * (one at a time), quorum loss, a restore. A member that keeps its place in etcd is started
   * again by {@link RestartMember}.
   * {@code alone}: the (single) pod starts as a one-member cluster whatever spec.replicas says,
   * so that its agent restores from the backup store; the others join it later.
   */
  record CreatePods(List<Integer> ordinals, String reason, boolean alone)
      implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.createPods(this);
    }

    public CreatePods(List<Integer> ordinals, String reason) {
      this(ordinals, reason, false);
    }

    public String describe() {
      return "creating pods of members " + ordinals + " (" + reason + ")";
    }
  }

  /**
   * Restart a member, one action: its pod (the one observed, by uid) is deleted and, once gone,
   * created again from the desired spec, for every reason in {@code reasons} (never empty). A pod that takes longer to
   * terminate leaves the restart waiting; the next observation plans it again for the same
   * member (its pod terminating, or gone while the member keeps its place in etcd), which then
   * only creates the pod. With {@code snapshotFirstVia} (the first member to run another etcd
   * minor), a full snapshot is taken through that member's agent before anything restarts.
   */
  record RestartMember(int ordinal, String name, Set<RestartReason> reasons,
      OptionalInt snapshotFirstVia) implements RolloutAction {
    public RestartMember {
      if (reasons.isEmpty()) {
        throw new IllegalArgumentException("a restart of " + name + " without a reason");
      }
      reasons = Collections.unmodifiableSet(EnumSet.copyOf(reasons));
    }

    public RestartMember(int ordinal, String name, Set<RestartReason> reasons) {
      this(ordinal, name, reasons, OptionalInt.empty());
    }

    public RestartMember(int ordinal, String name, RestartReason reason) {
      this(ordinal, name, EnumSet.of(reason));
    }

    public <R> R accept(Handler<R> handler) {
      return handler.restartMember(this);
    }

    public String describe() {
      return "restarting member " + name + " (" + RestartReason.describe(reasons) + ")";
    }
  }

  /**
   * One step of etcd's downgrade protocol through a member's agent: {@code ENABLE} validates
   * and then enables the downgrade of the cluster to {@code minor} (after a full snapshot
   * through {@code snapshotFirstVia}, if given), {@code CANCEL} cancels an enabled one. etcd's
   * refusal leaves every member as it is and says why.
   */
  record Downgrade(int viaOrdinal, Downgraded.Action action, String minor,
      OptionalInt snapshotFirstVia) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.downgrade(this);
    }

    public String describe() {
      return action == Downgraded.Action.CANCEL
          ? "cancelling etcd's downgrade to " + minor
          : "enabling etcd's downgrade to " + minor + " (its members then roll back one by one)";
    }
  }

  /**
   * Apply the spec's labels and annotations to running member pods in place: nothing a member
   * runs changes, so nothing restarts.
   */
  record UpdateMemberMetadata(List<Integer> ordinals, List<String> names)
      implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.updateMemberMetadata(this);
    }

    public String describe() {
      return "updating labels and annotations of " + String.join(", ", names)
          + " in place (no restart)";
    }
  }

  /** Move etcd leadership away from the leader before it is updated or defragmented. */
  record MoveLeader(int fromOrdinal, String fromName, String toMemberId, String toName)
      implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.moveLeader(this);
    }

    public String describe() {
      return "moving leadership from " + fromName + " to " + toName;
    }
  }

  /** Promote a learner through a voting member's agent (a learner cannot list members). */
  record PromoteLearner(int ordinal, String name, String memberId, int viaOrdinal)
      implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.promoteLearner(this);
    }

    public String describe() {
      return "promoting learner " + name;
    }
  }

  /**
   * Hibernation (replicas: 0): take a final full snapshot through the leader when there is a
   * store and a leader, then delete every member pod (volumes stay unless asked otherwise).
   */
  record Hibernate(List<Integer> ordinals, OptionalInt finalSnapshotVia,
      Optional<VolumeOperation> recordAfterSnapshot) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.hibernate(this);
    }

    public Hibernate(List<Integer> ordinals, OptionalInt finalSnapshotVia) {
      this(ordinals, finalSnapshotVia, Optional.empty());
    }

    public String describe() {
      return "hibernating: " + (finalSnapshotVia.isPresent() ? "final full snapshot, then " : "")
          + "deleting pods of members " + ordinals;
    }
  }

  /** Scale-in: remove the member from the etcd membership first, through a remaining member. */
  record RemoveMember(int ordinal, String name, String memberId, int viaOrdinal)
      implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.removeMember(this);
    }

    public String describe() {
      return "removing member " + name + " from the etcd cluster";
    }
  }

  /** Scale-in: the member is out of the membership; delete its pod and volume. */
  record DeleteSurplusMember(int ordinal, String name) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.deleteSurplusMember(this);
    }

    public String describe() {
      return "deleting pod and volume of removed member " + name;
    }
  }

  /**
   * Records the intent of a volume operation in status.volumeOperation before its next
   * disruptive step; the step itself is taken by a later reconcile that observes the record.
   */
  record RecordVolumeOperation(VolumeOperation operation, String reason) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.recordVolumeOperation(this);
    }

    public String describe() {
      return reason;
    }
  }

  /**
   * Full snapshot through the leader's agent before volumes are deleted; on success
   * {@code then} is recorded with the snapshot's revision.
   */
  record TakeFullSnapshot(int viaOrdinal, VolumeOperation then) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.takeFullSnapshot(this);
    }

    public String describe() {
      boolean replacing = then.kind().filter(k -> k == VolumeOperation.Kind.REPLACE
          || k == VolumeOperation.Kind.REPLACE_MEMBER_VOLUME).isPresent();
      return "taking a full snapshot before volumes are " + (replacing ? "replaced" : "deleted");
    }
  }

  /** Delete a member's pod and its volume claim, to be recreated with the desired volume. */
  record DeleteMemberAndVolume(int ordinal, String name, String pvcName, RestartReason reason)
      implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.deleteMemberAndVolume(this);
    }

    public String describe() {
      return "deleting pod and volume " + pvcName + " of member " + name + " ("
          + reason.text() + ")";
    }
  }

  /** Delete member pods without touching volumes (recovery from quorum loss). */
  record DeleteMembers(List<Integer> ordinals, String reason) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.deleteMembers(this);
    }

    public String describe() {
      return "deleting pods of members " + ordinals + " (" + reason + ")";
    }
  }

  /** Delete volume claims of members whose pods are gone; then {@code then} is recorded. */
  record DeleteVolumes(List<String> pvcNames, VolumeOperation then) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.deleteVolumes(this);
    }

    public String describe() {
      return "deleting volumes " + pvcNames;
    }
  }

  /** Grow volume claims in place (the class allows expansion). */
  record ExpandVolumes(List<Integer> ordinals) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.expandVolumes(this);
    }

    public String describe() {
      return "expanding volumes of members " + ordinals;
    }
  }

  /** Defragment one member through its agent (its etcd blocks while it runs). */
  record Defragment(int ordinal, String name) implements RolloutAction {
    public <R> R accept(Handler<R> handler) {
      return handler.defragment(this);
    }

    public String describe() {
      return "defragmenting member " + name;
    }
  }
}
