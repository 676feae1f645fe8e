package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/** Take a full or delta snapshot now. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "self.type == 'delta' ? !has(self.isFinal) || self.isFinal == false : true",
    message = "spec.config.onDemandSnapshot.isFinal must be false (or omitted) when type is"
        + " 'delta'",
    fieldPath = ".isFinal")
public class OnDemandSnapshotConfig {

  @Required
  private SnapshotType type;

  @JsonPropertyDescription("Mark the full snapshot final (taken before hibernation).")
  private Boolean isFinal;

  @Min(120)
  @Default("900")
  private Integer timeoutSecondsFull;

  @Min(10)
  @Default("60")
  private Integer timeoutSecondsDelta;


  public SnapshotType getType() {
    return type;
  }

  public void setType(SnapshotType type) {
    this.type = type;
  }

  public Boolean getIsFinal() {
    return isFinal;
  }

  public void setIsFinal(Boolean isFinal) {
    this.isFinal = isFinal;
  }

  public Integer getTimeoutSecondsFull() {
    return timeoutSecondsFull;
  }

  public void setTimeoutSecondsFull(Integer timeoutSecondsFull) {
    this.timeoutSecondsFull = timeoutSecondsFull;
  }

  public Integer getTimeoutSecondsDelta() {
    return timeoutSecondsDelta;
  }

  public void setTimeoutSecondsDelta(Integer timeoutSecondsDelta) {
    this.timeoutSecondsDelta = timeoutSecondsDelta;
  }
  /** Kind of snapshot. */
  public enum SnapshotType {
    @JsonProperty("full")
    FULL,
    @JsonProperty("delta")
    DELTA
  }
}
