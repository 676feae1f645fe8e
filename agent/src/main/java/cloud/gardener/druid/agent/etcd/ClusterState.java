package cloud.gardener.druid.agent.etcd;

import java.util.Locale;

/** etcd's {@code initial-cluster-state}. */
public enum ClusterState {
  NEW, EXISTING;

  public String flag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
