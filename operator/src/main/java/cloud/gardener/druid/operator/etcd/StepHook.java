package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.rollout.RolloutAction;
import java.util.function.BiConsumer;

/**
 * A test hook called with every rollout step right before it is executed. Tests use it to
 * stop the operator at a named step (it throws, and the test replaces the operator) and
 * check that the next operator resumes the flow from the status record. Never set in
 * production.
 */
public final class StepHook {

  private static volatile BiConsumer<Etcd, RolloutAction> hook = (etcd, action) -> { };

  private StepHook() {
  }

  public static void install(BiConsumer<Etcd, RolloutAction> h) {
    hook = h == null ? (etcd, action) -> { } : h;
  }

  static void reached(Etcd etcd, RolloutAction action) {
    hook.accept(etcd, action);
  }
}
