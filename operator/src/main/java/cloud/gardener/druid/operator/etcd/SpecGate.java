package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import java.util.Map;

/**
 * Whether this reconcile may act on the spec (upstream semantics): never while
 * {@code suspend-etcd-spec-reconcile} is set; always with auto-reconcile; otherwise a new
 * generation is admitted only for a new Etcd or when annotated with
 * {@code operation: reconcile}, and an admitted generation is rolled out to the end (and kept,
 * e.g. a lost pod is recreated). Status is refreshed either way.
 */
public record SpecGate(boolean reconcileSpec, String reason) {

  public static SpecGate decide(Etcd etcd, boolean autoReconcile) {
    Map<String, String> a = etcd.getMetadata().getAnnotations() == null
        ? Map.of() : etcd.getMetadata().getAnnotations();
    if (a.containsKey(Annotations.SUSPEND_SPEC_RECONCILE)) {
      return new SpecGate(false, "spec reconciliation is suspended by annotation "
          + Annotations.SUSPEND_SPEC_RECONCILE);
    }
    if (autoReconcile) {
      return new SpecGate(true, "auto-reconcile");
    }
    if (hasReconcileAnnotation(etcd)) {
      return new SpecGate(true, "annotated with operation: reconcile");
    }
    Long observed = etcd.getStatus() == null ? null : etcd.getStatus().getObservedGeneration();
    if (observed == null) {
      return new SpecGate(true, "new Etcd");
    }
    if (observed.equals(etcd.getMetadata().getGeneration())) {
      return new SpecGate(true, "keeping the admitted generation rolled out");
    }
    return new SpecGate(false, "waiting for annotation " + Annotations.OPERATION + ": "
        + Annotations.OPERATION_RECONCILE);
  }

  public static boolean hasReconcileAnnotation(Etcd etcd) {
    Map<String, String> a = etcd.getMetadata().getAnnotations();
    return a != null && (Annotations.OPERATION_RECONCILE.equals(a.get(Annotations.OPERATION))
        || Annotations.OPERATION_RECONCILE.equals(a.get(Annotations.LEGACY_OPERATION)));
  }
}
