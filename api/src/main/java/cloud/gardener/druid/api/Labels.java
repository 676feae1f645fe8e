package cloud.gardener.druid.api;

/** Labels the operator puts on the objects it manages. */
public final class Labels {

  public static final String NAME = "app.kubernetes.io/name";
  public static final String PART_OF = "app.kubernetes.io/part-of";
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  public static final String COMPONENT = "app.kubernetes.io/component";
  public static final String MANAGED_BY_VALUE = "etcd-druid";
  /** Hash of the desired pod spec of a member: a pod whose hash differs is restarted. */
  public static final String MEMBER_REVISION = "druid.gardener.cloud/member-revision";
  /** Hash of the desired volume spec of a member: a claim whose hash differs is changed. */
  public static final String VOLUME_REVISION = "druid.gardener.cloud/volume-revision";
  /** Ordinal of a member within its Etcd. */
  public static final String MEMBER_ORDINAL = "druid.gardener.cloud/member-ordinal";

  private Labels() {
  }
}
