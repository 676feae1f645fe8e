package cloud.gardener.druid.api;

/**
 * Annotations the operator honours on an Etcd: upstream's names, plus this operator's own
 * (the volume replacement confirmation, docs/volumes.md).
 */
public final class Annotations {

  /** {@code reconcile} triggers a spec reconcile when auto-reconcile is off; removed after success. */
  public static final String OPERATION = "druid.gardener.cloud/operation";
  /** Legacy spelling of {@link #OPERATION}. */
  public static final String LEGACY_OPERATION = "gardener.cloud/operation";
  public static final String OPERATION_RECONCILE = "reconcile";
  /** Pauses spec reconciles; status keeps updating. */
  public static final String SUSPEND_SPEC_RECONCILE = "druid.gardener.cloud/suspend-etcd-spec-reconcile";
  /** Lifts the protection of managed objects. */
  public static final String DISABLE_COMPONENT_PROTECTION =
      "druid.gardener.cloud/disable-etcd-component-protection";
  /**
   * Upstream's: while present, the Etcd runs no member (as with {@code replicas: 0}) and, once no
   * member pod is left, has none of its runtime components (service account, role, role
   * binding, leases, disruption budget, services); the config map and volumes stay.
   */
  public static final String DISABLE_RUNTIME_COMPONENT_CREATION =
      "druid.gardener.cloud/disable-etcd-runtime-component-creation";
  /** Must equal the Etcd's metadata.generation to authorise a volume replacement (addition). */
  public static final String CONFIRM_VOLUME_REPLACEMENT =
      "druid.gardener.cloud/confirm-volume-replacement";

  /**
   * On member pods: the hash of the labels and annotations the Etcd's spec gives them. A change
   * of only these is applied to the running pods in place, without a restart.
   */
  public static final String METADATA_REVISION = "druid.gardener.cloud/metadata-revision";

  /**
   * On an Etcd created by a point-in-time restore (addition): {@code <ns>/<etcd>@<revision>},
   * the source and the revision restored.
   */
  public static final String RESTORED_FROM = "druid.gardener.cloud/restored-from";

  private Annotations() {
  }
}
