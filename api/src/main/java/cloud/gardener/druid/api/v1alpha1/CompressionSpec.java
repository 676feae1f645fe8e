package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** Compression of snapshots. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CompressionSpec {

  private Boolean enabled;

  private Policy policy;


  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public Policy getPolicy() {
    return policy;
  }

  public void setPolicy(Policy policy) {
    this.policy = policy;
  }
  /** Compression algorithm. */
  public enum Policy {
    @JsonProperty("gzip")
    GZIP,
    @JsonProperty("lzw")
    LZW,
    @JsonProperty("zlib")
    ZLIB
  }
}
