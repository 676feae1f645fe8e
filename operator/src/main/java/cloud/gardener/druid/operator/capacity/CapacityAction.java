package cloud.gardener.druid.operator.capacity;

import cloud.gardener.druid.api.ByteSizes;

/**
 * The one next step the capacity flow takes (docs/capacity.md), decided by
 * {@link CapacityPlan}; each carries the forecast that triggered it, which its event repeats.
 */
public sealed interface CapacityAction {

  /** Human-readable description, used in events and lastOperation. */
  String describe();

  /** Calls the method of {@code handler} for this action's type. */
  <R> R accept(Handler<R> handler);

  /** Whether the step changes the cluster (everything but {@link Idle} and {@link Hold}). */
  default boolean acts() {
    return !(this instanceof Idle) && !(this instanceof Hold);
  }

  /** Handles every action type: an action added without a method here does not compile. */
  interface Handler<R> {
    R idle(Idle action);

    R hold(Hold action);

    R defragment(Defragment action);

    R moveLeader(MoveLeader action);

    R compact(Compact action);

    R disarmAlarm(DisarmAlarm action);

    R raiseQuota(RaiseQuota action);

    R growVolume(GrowVolume action);
  }

  /** Nothing to do. */
  record Idle(String why) implements CapacityAction {
    public String describe() {
      return why;
    }

    public <R> R accept(Handler<R> handler) {
      return handler.idle(this);
    }
  }

  /** Something is wanted but a limit holds it back (a member not healthy, no leader target). */
  record Hold(String wanted, String why) implements CapacityAction {
    public String describe() {
      return wanted + " waits: " + why;
    }

    public <R> R accept(Handler<R> handler) {
      return handler.hold(this);
    }
  }

  /** Defragment one member (a follower, or a single member) through its agent. */
  record Defragment(int ordinal, String name, String trigger) implements CapacityAction {
    public String describe() {
      return "defragmenting member " + name + " (" + trigger + ")";
    }

    public <R> R accept(Handler<R> handler) {
      return handler.defragment(this);
    }
  }

  /** Move leadership off the leader so that it is defragmented last, as a follower. */
  record MoveLeader(int fromOrdinal, String fromName, String toMemberId, String toName,
      String trigger) implements CapacityAction {
    public String describe() {
      return "moving leadership from " + fromName + " to " + toName
          + " to defragment " + fromName + " last (" + trigger + ")";
    }

    public <R> R accept(Handler<R> handler) {
      return handler.moveLeader(this);
    }
  }

  /** Compact the key history to the current revision (NOSPACE recovery, when allowed). */
  record Compact(int viaOrdinal, String trigger) implements CapacityAction {
    public String describe() {
      return "compacting the key history to the current revision (" + trigger + ")";
    }

    public <R> R accept(Handler<R> handler) {
      return handler.compact(this);
    }
  }

  /** Disarm etcd's NOSPACE alarm: every member is below its quota again. */
  record DisarmAlarm(int viaOrdinal, String trigger) implements CapacityAction {
    public String describe() {
      return "disarming etcd's NOSPACE alarm (" + trigger + ")";
    }

    public <R> R accept(Handler<R> handler) {
      return handler.disarmAlarm(this);
    }
  }

  /** Raise the quota (a rolling restart of the members, under the rollout contract). */
  record RaiseQuota(long fromBytes, long toBytes, String trigger) implements CapacityAction {
    public String describe() {
      return "raising the quota from " + ByteSizes.of(fromBytes) + " to " + ByteSizes.of(toBytes)
          + " (" + trigger + ")";
    }

    public <R> R accept(Handler<R> handler) {
      return handler.raiseQuota(this);
    }
  }

  /** Grow the volumes in place so that they hold a raised quota. */
  record GrowVolume(long fromBytes, long toBytes, String trigger) implements CapacityAction {
    public String describe() {
      return "growing the volumes from " + ByteSizes.of(fromBytes) + " to "
          + ByteSizes.of(toBytes) + " (" + trigger + ")";
    }

    public <R> R accept(Handler<R> handler) {
      return handler.growVolume(this);
    }
  }
}
