package cloud.gardener.druid.api.v1alpha1;

import cloud.gardener.druid.api.types.CronSchedule;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/**
 * Scheduled restore drills of the backups (addition, docs/backup-verification.md): on by
 * default for an Etcd with a store, daily.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupVerificationSpec {

  public static final String DEFAULT_SCHEDULE = "@daily";

  @JsonPropertyDescription("Run restore drills on the schedule (default true with a store).")
  private Boolean enabled;

  @SchemaFrom(type = String.class)
  @Size(max = CronSchedule.MAX_LENGTH)
  @Pattern(CronSchedule.PATTERN)
  @ValidationRule(value = CronSchedule.RULE, message = CronSchedule.RULE_MESSAGE)
  @JsonPropertyDescription("Schedule of the drills as robfig/cron reads it (evaluated in UTC;"
      + " default @daily).")
  private CronSchedule schedule;

  @JsonPropertyDescription("Resources of the drill Job's container (default: requests 500m"
      + " CPU and 1Gi memory, limit 3Gi memory).")
  private ResourceRequirements resources;

  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public CronSchedule getSchedule() {
    return schedule;
  }

  public void setSchedule(CronSchedule schedule) {
    this.schedule = schedule;
  }

  public ResourceRequirements getResources() {
    return resources;
  }

  public void setResources(ResourceRequirements resources) {
    this.resources = resources;
  }
}
