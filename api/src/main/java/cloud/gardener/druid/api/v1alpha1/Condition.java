package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Optional;

/** A condition of an Etcd or an EtcdCopyBackupsTask. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Condition {

  private String type;

  @JsonPropertyDescription("True, False or Unknown.")
  private String status;

  private String lastTransitionTime;

  private String lastUpdateTime;

  private String reason;

  private String message;

  /**
   * The condition of {@code type} among {@code conditions} (a status's, which may be null): a
   * status holds at most one condition of each type.
   */
  public static Optional<Condition> find(List<Condition> conditions, String type) {
    return conditions == null ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  public String getLastUpdateTime() {
    return lastUpdateTime;
  }

  public void setLastUpdateTime(String lastUpdateTime) {
    this.lastUpdateTime = lastUpdateTime;
  }

  public String getReason() {
    return reason;
  }

  public void setReason(String reason) {
    this.reason = reason;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }
}
