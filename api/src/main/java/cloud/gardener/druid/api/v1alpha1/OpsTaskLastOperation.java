package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;


/** The last phase an EtcdOpsTask went through. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class OpsTaskLastOperation {

  public static final String TYPE_ADMIT = "Admit";
  public static final String TYPE_EXECUTION = "Execution";
  public static final String TYPE_CLEANUP = "Cleanup";

  public static final String STATE_IN_PROGRESS = "InProgress";
  public static final String STATE_COMPLETED = "Completed";
  public static final String STATE_FAILED = "Failed";

  @JsonPropertyDescription("Admit, Execution or Cleanup.")
  private String type;

  @JsonPropertyDescription("InProgress, Completed or Failed.")
  private String state;

  private String description;

  private String runID;

  private String lastTransitionTime;

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getState() {
    return state;
  }

  public void setState(String state) {
    this.state = state;
  }

  public String getDescription() {
    return description;
  }

  public void setDescription(String description) {
    this.description = description;
  }

  public String getRunID() {
    return runID;
  }

  public void setRunID(String runID) {
    this.runID = runID;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }
}
