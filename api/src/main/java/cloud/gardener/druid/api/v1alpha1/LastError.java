package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;


/** An error the last reconcile met, with a stable code. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LastError {

  @JsonPropertyDescription("Stable code such as ERR_SYNC_MEMBER_PODS.")
  private String code;

  private String description;

  private String observedAt;

  public String getCode() {
    return code;
  }

  public void setCode(String code) {
    this.code = code;
  }

  public String getDescription() {
    return description;
  }

  public void setDescription(String description) {
    this.description = description;
  }

  public String getObservedAt() {
    return observedAt;
  }

  public void setObservedAt(String observedAt) {
    this.observedAt = observedAt;
  }
}
