package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;

/**
 * Run a restore drill now (addition): a Job restores the newest full snapshot and its deltas
 * into temporary etcds and compares their content with the hashes recorded at snapshot time
 * (docs/backup-verification.md).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VerifyBackupsConfig {

  @Min(1)
  @Default("1800")
  @JsonPropertyDescription("Timeout of the drill.")
  private Integer timeoutSeconds;

  public Integer getTimeoutSeconds() {
    return timeoutSeconds;
  }

  public void setTimeoutSeconds(Integer timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }
}
