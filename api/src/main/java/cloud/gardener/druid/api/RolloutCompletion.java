package cloud.gardener.druid.api;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The completion predicate of a rollout (docs/rollout-contract.md), for clients. A rollout of generation G is
 * complete exactly when {@code status.observedGeneration == G}, the conditions
 * {@code AllMembersUpdated}, {@code AllMembersReady} and {@code Ready} are {@code True}, and
 * {@code status.lastOperation.state == Succeeded}. The operator guarantees that no status
 * version satisfies this while a member pod of an older revision exists or a member is not
 * ready.
 */
public final class RolloutCompletion {

  public static final String SUCCEEDED = "Succeeded";

  private RolloutCompletion() {
  }

  /** True when the rollout of the Etcd's current {@code metadata.generation} is complete. */
  public static boolean isComplete(Etcd etcd) {
    return pendingReasons(etcd).isEmpty();
  }

  /** Why the rollout is not complete yet; empty when it is. */
  public static List<String> pendingReasons(Etcd etcd) {
    List<String> reasons = new ArrayList<>();
    Long generation = etcd.getMetadata().getGeneration();
    EtcdStatus status = etcd.getStatus();
    if (status == null) {
      reasons.add("no status yet");
      return reasons;
    }
    if (!Objects.equals(status.getObservedGeneration(), generation)) {
      reasons.add("observedGeneration " + status.getObservedGeneration() + " != generation "
          + generation);
    }
    for (String type : List.of(ConditionTypes.ALL_MEMBERS_UPDATED,
        ConditionTypes.ALL_MEMBERS_READY, ConditionTypes.READY)) {
      Condition c = Condition.find(status.getConditions(), type).orElse(null);
      if (c == null || !ConditionTypes.TRUE.equals(c.getStatus())) {
        reasons.add(type + " is " + (c == null ? "absent" : c.getStatus()
            + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")")));
      }
    }
    String state = status.getLastOperation() == null ? null : status.getLastOperation().getState();
    if (!SUCCEEDED.equals(state)) {
      reasons.add("lastOperation.state is " + state);
    }
    return reasons;
  }
}
