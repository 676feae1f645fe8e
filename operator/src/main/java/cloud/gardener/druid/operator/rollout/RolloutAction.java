package cloud.gardener.druid.operator.rollout;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** The one next step the roll of an Etcd's members takes; executed, then observed again. */
public sealed interface RolloutAction {

  /** Human-readable description, used in events and lastOperation. */
  String describe();

  /** Nothing to do: every member is as desired. */
  record Done() implements RolloutAction {
    public String describe() {
      return "all members are up to date";
    }
  }

  /** Nothing to do now; the next observation decides (e.g. a member is catching up). */
  record Wait(String reason) implements RolloutAction {
    public String describe() {
      return "waiting: " + reason;
    }
  }

  record CreateVolumes(List<Integer> ordinals) implements RolloutAction {
    public String describe() {
      return "creating volumes of members " + ordinals;
    }
  }

  /**
   * Create member pods; several only when bootstrapping or when quorum is already lost.
   * {@code alone}: the (single) pod starts as a one-member cluster whatever spec.replicas says,
   * so that its agent restores from the backup store; the others join it later.
   */
  record CreatePods(List<Integer> ordinals, String reason, boolean alone)
      implements RolloutAction {
    public CreatePods(List<Integer> ordinals, String reason) {
      this(ordinals, reason, false);
    }

    public String describe() {
      return "creating pods of members " + ordinals + " (" + reason + ")";
    }
  }

  /** Delete a member's pod so that it is recreated with the desired spec. */
  record RestartMember(int ordinal, String name, String reason) implements RolloutAction {
    public String describe() {
      return "updating member " + name + " (" + reason + ")";
    }
  }

  /** Move etcd leadership away from the leader before it is updated. */
  record MoveLeader(int fromOrdinal, String fromName, String toMemberId, String toName)
      implements RolloutAction {
    public String describe() {
      return "moving leadership from " + fromName + " to " + toName;
    }
  }

  /** Promote a learner through a voting member's agent (a learner cannot list members). */
  record PromoteLearner(int ordinal, String name, String memberId, int viaOrdinal)
      implements RolloutAction {
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
    public String describe() {
      return "removing member " + name + " from the etcd cluster";
    }
  }

  /** Scale-in: the member is out of the membership; delete its pod and volume. */
  record DeleteSurplusMember(int ordinal, String name) implements RolloutAction {
    public String describe() {
      return "deleting pod and volume of removed member " + name;
    }
  }

  /**
   * Records the intent of a volume operation in status.volumeOperation before its next
   * disruptive step; the step itself is taken by a later reconcile that observes the record.
   */
  record RecordVolumeOperation(VolumeOperation operation, String reason) implements RolloutAction {
    public String describe() {
      return reason;
    }
  }

  /**
   * Full snapshot through the leader's agent before volumes are deleted; on success
   * {@code then} is recorded with the snapshot's revision.
   */
  record TakeFullSnapshot(int viaOrdinal, VolumeOperation then) implements RolloutAction {
    public String describe() {
      return "taking a full snapshot before volumes are " + ("Replace".equals(then.getType())
          || "ReplaceMemberVolume".equals(then.getType()) ? "replaced" : "deleted");
    }
  }

  /** Delete a member's pod and its volume claim, to be recreated with the desired volume. */
  record DeleteMemberAndVolume(int ordinal, String name, String pvcName, String reason)
      implements RolloutAction {
    public String describe() {
      return "deleting pod and volume " + pvcName + " of member " + name + " (" + reason + ")";
    }
  }

  /** Delete member pods without touching volumes (recovery from quorum loss). */
  record DeleteMembers(List<Integer> ordinals, String reason) implements RolloutAction {
    public String describe() {
      return "deleting pods of members " + ordinals + " (" + reason + ")";
    }
  }

  /** Delete volume claims of members whose pods are gone; then {@code then} is recorded. */
  record DeleteVolumes(List<String> pvcNames, VolumeOperation then) implements RolloutAction {
    public String describe() {
      return "deleting volumes " + pvcNames;
    }
  }

  /** Grow volume claims in place (the class allows expansion). */
  record ExpandVolumes(List<Integer> ordinals) implements RolloutAction {
    public String describe() {
      return "expanding volumes of members " + ordinals;
    }
  }
}
