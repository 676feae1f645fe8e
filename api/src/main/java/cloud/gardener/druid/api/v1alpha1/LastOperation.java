package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The last operation on the Etcd and its state. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LastOperation extends OperationFields {

  private String lastUpdateTime;

  public String getLastUpdateTime() {
    return lastUpdateTime;
  }

  public void setLastUpdateTime(String lastUpdateTime) {
    this.lastUpdateTime = lastUpdateTime;
  }
}
