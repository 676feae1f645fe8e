package cloud.gardener.druid.operator.status;

import cloud.gardener.druid.api.v1alpha1.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Creates conditions and keeps their transition time when the status did not change. */
public final class Conditions {

  private Conditions() {
  }

  public static Condition of(String type, String status, String reason, String message) {
    Condition c = new Condition();
    c.setType(type);
    c.setStatus(status);
    c.setReason(reason);
    c.setMessage(message);
    return c;
  }

  /**
   * Stamps {@code next} with times: lastTransitionTime is carried over from the previous
   * condition of the same type when the status is unchanged. lastUpdateTime changes only
   * when reason or message change, so an unchanged world gives an identical status (and no
   * write).
   */
  public static Condition stamp(Condition next, List<Condition> previous, Instant now) {
    Condition prev = Condition.find(previous, next.getType()).orElse(null);
    String ts = now.toString();
    boolean sameStatus = prev != null && Objects.equals(prev.getStatus(), next.getStatus());
    boolean sameText = sameStatus && Objects.equals(prev.getReason(), next.getReason())
        && Objects.equals(prev.getMessage(), next.getMessage());
    next.setLastTransitionTime(sameStatus && prev.getLastTransitionTime() != null
        ? prev.getLastTransitionTime() : ts);
    next.setLastUpdateTime(sameText && prev.getLastUpdateTime() != null ? prev.getLastUpdateTime() : ts);
    return next;
  }
}
