package cloud.gardener.druid.api.v1alpha1;

/**
 * What both kinds of {@code status.lastOperation} hold (the Etcd's and the EtcdOpsTask's): a
 * type, a state, a description and the run that wrote it. Each names its own time field
 * (upstream's {@code lastUpdateTime} and {@code lastTransitionTime}) and its values, described
 * on the status field that holds it.
 */
public abstract class OperationFields {

  private String type;

  private String state;

  private String description;

  private String runID;

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
}
