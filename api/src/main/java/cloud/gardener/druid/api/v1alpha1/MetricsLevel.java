package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Level of detail of the metrics etcd exposes. */
public enum MetricsLevel {
  @JsonProperty("basic")
  BASIC,
  @JsonProperty("extensive")
  EXTENSIVE
}
