package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;

/**
 * Remove the members of the existing cluster an Etcd joined
 * ({@code spec.etcd.bootstrapWithExistingCluster}) from the etcd membership, one at a time,
 * after leadership moved to a member of the Etcd (addition; upstream leaves this to its
 * proposal DEP-08). Nothing of the source's processes is touched (docs/existing-cluster.md).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RetireSourceMembersConfig {

  @Min(1)
  @Default("600")
  @JsonPropertyDescription("Timeout of the whole retirement.")
  private Integer timeoutSeconds;

  public Integer getTimeoutSeconds() {
    return timeoutSeconds;
  }

  public void setTimeoutSeconds(Integer timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }
}
