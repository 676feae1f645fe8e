package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** Progress of an EtcdOpsTask. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdOpsTaskStatus {

  public static final String STATE_PENDING = "Pending";
  public static final String STATE_IN_PROGRESS = "InProgress";
  public static final String STATE_SUCCEEDED = "Succeeded";
  public static final String STATE_FAILED = "Failed";
  public static final String STATE_REJECTED = "Rejected";

  @JsonPropertyDescription("Pending, InProgress, Succeeded, Failed or Rejected.")
  private String state;

  private String startedAt;

  private String lastTransitionTime;

  private List<LastError> lastErrors;

  @JsonPropertyDescription("type: Admit, Execution or Cleanup; state: InProgress, Completed or"
      + " Failed.")
  private OpsTaskLastOperation lastOperation;

  /** Succeeded, Failed or Rejected: nothing more happens but the deletion after the TTL. */
  @JsonIgnore
  public boolean isFinished() {
    return STATE_SUCCEEDED.equals(state) || STATE_FAILED.equals(state)
        || STATE_REJECTED.equals(state);
  }

  public String getState() {
    return state;
  }

  public void setState(String state) {
    this.state = state;
  }

  public String getStartedAt() {
    return startedAt;
  }

  public void setStartedAt(String startedAt) {
    this.startedAt = startedAt;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  public List<LastError> getLastErrors() {
    return lastErrors;
  }

  public void setLastErrors(List<LastError> lastErrors) {
    this.lastErrors = lastErrors;
  }

  public OpsTaskLastOperation getLastOperation() {
    return lastOperation;
  }

  public void setLastOperation(OpsTaskLastOperation lastOperation) {
    this.lastOperation = lastOperation;
  }
}
