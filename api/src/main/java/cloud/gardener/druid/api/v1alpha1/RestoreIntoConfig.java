package cloud.gardener.druid.api.v1alpha1;

import cloud.gardener.druid.api.types.StorePrefix;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Restore the task's Etcd at a revision or a time into a new Etcd (addition,
 * docs/time-travel.md): a Job restores the store's chain up to exactly that revision into the
 * new Etcd's own store prefix, then the new Etcd is created from the source's spec with that
 * prefix. The source is only read.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "has(self.revision) != has(self.time)",
    message = "set exactly one of revision and time")
public class RestoreIntoConfig {

  /** An RFC 3339 time, as Kubernetes writes times (fractions and offsets allowed). */
  public static final String TIME_PATTERN =
      "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$";
  public static final String NAME_PATTERN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";

  @Required
  @Size(max = 50)
  @Pattern(NAME_PATTERN)
  @JsonPropertyDescription("Name of the new Etcd, in the task's namespace; it must not exist.")
  private String etcdName;

  @Min(1)
  @JsonPropertyDescription("The revision to restore (kubectl druid history lists the retained"
      + " range).")
  private Long revision;

  @Pattern(TIME_PATTERN)
  @JsonPropertyDescription("Restore the last event not after this RFC 3339 time instead.")
  private String time;

  @ValidationRule(value = StorePrefix.RULE, message = StorePrefix.MESSAGE)
  @JsonPropertyDescription("The new Etcd's store prefix. Default: the source's prefix with its"
      + " last segment replaced by the new Etcd's name.")
  private String storePrefix;

  @Min(1)
  @Default("3600")
  @JsonPropertyDescription("Timeout of the restore Job.")
  private Integer timeoutSeconds;

  public String getEtcdName() {
    return etcdName;
  }

  public void setEtcdName(String etcdName) {
    this.etcdName = etcdName;
  }

  public Long getRevision() {
    return revision;
  }

  public void setRevision(Long revision) {
    this.revision = revision;
  }

  public String getTime() {
    return time;
  }

  public void setTime(String time) {
    this.time = time;
  }

  public String getStorePrefix() {
    return storePrefix;
  }

  public void setStorePrefix(String storePrefix) {
    this.storePrefix = storePrefix;
  }

  public Integer getTimeoutSeconds() {
    return timeoutSeconds;
  }

  public void setTimeoutSeconds(Integer timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }
}
