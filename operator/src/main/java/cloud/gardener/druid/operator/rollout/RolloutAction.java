package cloud.gardener.druid.operator.rollout;

import java.util.List;
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

  /** Create member pods; several only when bootstrapping or when quorum is already lost. */
  record CreatePods(List<Integer> ordinals, String reason) implements RolloutAction {
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
  record Hibernate(List<Integer> ordinals, OptionalInt finalSnapshotVia)
      implements RolloutAction {
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
}
