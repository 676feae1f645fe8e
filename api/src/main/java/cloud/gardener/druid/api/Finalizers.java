package cloud.gardener.druid.api;

/** Finalizers the operator sets (upstream names). */
public final class Finalizers {

  public static final String ETCD = "druid.gardener.cloud/etcd-druid";
  public static final String ETCD_OPS_TASK = "druid.gardener.cloud/etcd-ops-task";

  private Finalizers() {
  }
}
