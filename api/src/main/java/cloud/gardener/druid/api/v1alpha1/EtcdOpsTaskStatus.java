package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** Progress of an EtcdOpsTask. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdOpsTaskStatus {

  @JsonPropertyDescription("Pending, InProgress, Succeeded, Failed or Rejected.")
  private String state;

  private String startedAt;

  private String lastTransitionTime;

  private List<LastError> lastErrors;

  private OpsTaskLastOperation lastOperation;

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
