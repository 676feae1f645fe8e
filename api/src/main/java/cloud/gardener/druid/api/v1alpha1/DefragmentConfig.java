package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;

/** Defragment the members now. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DefragmentConfig {

  @Min(1)
  @Default("300")
  @JsonPropertyDescription("Timeout of the defragmentation of one member.")
  private Integer timeoutSecondsPerMember;

  public Integer getTimeoutSecondsPerMember() {
    return timeoutSecondsPerMember;
  }

  public void setTimeoutSecondsPerMember(Integer timeoutSecondsPerMember) {
    this.timeoutSecondsPerMember = timeoutSecondsPerMember;
  }
}
