package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;


/** The last operation on the Etcd and its state. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LastOperation {

  @JsonPropertyDescription("Create, Reconcile or Delete.")
  private String type;

  @JsonPropertyDescription("Processing, Succeeded, Error or Requeue.")
  private String state;

  private String description;

  private String runID;

  private String lastUpdateTime;

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

  public String getLastUpdateTime() {
    return lastUpdateTime;
  }

  public void setLastUpdateTime(String lastUpdateTime) {
    this.lastUpdateTime = lastUpdateTime;
  }
}
