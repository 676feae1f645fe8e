package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/** Compaction of snapshots (upstream runs it as a Job). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SnapshotCompactionSpec {

  private ResourceRequirements resources;

  @Min(1)
  private Long eventsThreshold;

  @Min(1)
  private Long triggerFullSnapshotThreshold;

  public ResourceRequirements getResources() {
    return resources;
  }

  public void setResources(ResourceRequirements resources) {
    this.resources = resources;
  }

  public Long getEventsThreshold() {
    return eventsThreshold;
  }

  public void setEventsThreshold(Long eventsThreshold) {
    this.eventsThreshold = eventsThreshold;
  }

  public Long getTriggerFullSnapshotThreshold() {
    return triggerFullSnapshotThreshold;
  }

  public void setTriggerFullSnapshotThreshold(Long triggerFullSnapshotThreshold) {
    this.triggerFullSnapshotThreshold = triggerFullSnapshotThreshold;
  }
}
