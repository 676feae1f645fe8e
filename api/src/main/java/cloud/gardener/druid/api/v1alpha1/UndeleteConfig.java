package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Bring the keys under a prefix back into the live cluster as they were at a revision or a
 * time (addition, docs/time-travel.md): a Job restores the store's chain up to that revision
 * into a temporary etcd and writes each key the cluster no longer holds back in a transaction
 * guarded by its absence. No member is restarted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "has(self.revision) != has(self.time)",
    message = "set exactly one of revision and time")
public class UndeleteConfig {

  @Required
  @Size(min = 1, max = 1024)
  @JsonPropertyDescription("The key prefix to bring back, e.g. /registry/configmaps/team-a/.")
  private String prefix;

  @Min(1)
  @JsonPropertyDescription("The revision whose keys are brought back: before the delete "
      + "(kubectl druid history --prefix lists the deletes' revisions).")
  private Long revision;

  @Pattern(RestoreIntoConfig.TIME_PATTERN)
  @JsonPropertyDescription("Bring back the keys as they were after the last event not after "
      + "this RFC 3339 time instead.")
  private String time;

  @JsonPropertyDescription("List what would be written and skipped; write nothing.")
  private Boolean dryRun;

  @JsonPropertyDescription("Also remove keys under the prefix created after the revision.")
  private Boolean removeCreatedAfter;

  @Min(1)
  @Default("1800")
  @JsonPropertyDescription("Timeout of the undelete Job.")
  private Integer timeoutSeconds;

  public String getPrefix() {
    return prefix;
  }

  public void setPrefix(String prefix) {
    this.prefix = prefix;
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

  public Boolean getDryRun() {
    return dryRun;
  }

  public void setDryRun(Boolean dryRun) {
    this.dryRun = dryRun;
  }

  public Boolean getRemoveCreatedAfter() {
    return removeCreatedAfter;
  }

  public void setRemoveCreatedAfter(Boolean removeCreatedAfter) {
    this.removeCreatedAfter = removeCreatedAfter;
  }

  public Integer getTimeoutSeconds() {
    return timeoutSeconds;
  }

  public void setTimeoutSeconds(Integer timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }
}
