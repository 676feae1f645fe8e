package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The answer of {@link AgentApi#CLUSTER_DOWNGRADE}: the action etcd accepted and the cluster
 * version etcd reported with it.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Downgraded(String action, String targetVersion, String clusterVersion) {

  /** etcd's downgrade actions (its DowngradeRequest.DowngradeAction). */
  public enum Action {
    VALIDATE, ENABLE, CANCEL
  }
}
