package cloud.gardener.druid.agent.etcd;

/** etcd's {@code initial-cluster-state}. */
public enum ClusterState {
  NEW, EXISTING;

  public String flag() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
