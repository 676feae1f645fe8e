package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The last phase an EtcdOpsTask went through. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class OpsTaskLastOperation extends OperationFields {

  public static final String TYPE_ADMIT = "Admit";
  public static final String TYPE_EXECUTION = "Execution";
  public static final String TYPE_CLEANUP = "Cleanup";

  public static final String STATE_IN_PROGRESS = "InProgress";
  public static final String STATE_COMPLETED = "Completed";
  public static final String STATE_FAILED = "Failed";

  private String lastTransitionTime;

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }
}
