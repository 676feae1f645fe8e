package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The bbolt freelist type of the etcd backend. */
public enum BboltFreelistType {
  @JsonProperty("array")
  ARRAY,
  @JsonProperty("map")
  MAP
}
