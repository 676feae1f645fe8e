package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/** What an EtcdOpsTask does and to which Etcd. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdOpsTaskSpec {

  @Required
  private EtcdOpsTaskConfig config;

  @Required
  @ValidationRule(value = "self == oldSelf", message = "spec.etcdName is immutable")
  @JsonPropertyDescription("Name of the Etcd in the task's namespace. Immutable.")
  private String etcdName;

  @Min(1)
  @Default("3600")
  @ValidationRule(value = "self == oldSelf", message = "spec.ttlSecondsAfterFinished is immutable")
  @JsonPropertyDescription("Seconds after completion until the task is deleted. Immutable.")
  private Integer ttlSecondsAfterFinished;

  public EtcdOpsTaskConfig getConfig() {
    return config;
  }

  public void setConfig(EtcdOpsTaskConfig config) {
    this.config = config;
  }

  public String getEtcdName() {
    return etcdName;
  }

  public void setEtcdName(String etcdName) {
    this.etcdName = etcdName;
  }

  public Integer getTtlSecondsAfterFinished() {
    return ttlSecondsAfterFinished;
  }

  public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
    this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
  }
}
