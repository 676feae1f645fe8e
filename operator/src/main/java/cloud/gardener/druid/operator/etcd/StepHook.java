package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.action.RolloutAction;

/**
 * A test hook called with every rollout step right before it is executed and right after
 * (before the status write that records its outcome). Tests use it to stop the operator at a
 * named step (it throws, and the test replaces the operator) and check that the next operator
 * resumes the flow from the status record. Never set in production.
 */
public final class StepHook {

  /** Where in a step the hook is called. */
  public enum Point { BEFORE, AFTER }

  /** Receives each step. */
  @FunctionalInterface
  public interface Listener {
    void at(Point point, Etcd etcd, RolloutAction action);
  }

  private static volatile Listener hook = (point, etcd, action) -> { };

  private StepHook() {
  }

  public static void install(Listener h) {
    hook = h == null ? (point, etcd, action) -> { } : h;
  }

  static void reached(Etcd etcd, RolloutAction action) {
    hook.at(Point.BEFORE, etcd, action);
  }

  static void executed(Etcd etcd, RolloutAction action) {
    hook.at(Point.AFTER, etcd, action);
  }
}
