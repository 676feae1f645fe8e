package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import cloud.gardener.druid.api.types.GoDuration;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** Wait for a final full snapshot in the source store before copying. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WaitForFinalSnapshotSpec {

  @Required
  private Boolean enabled;

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  private GoDuration timeout;

  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public GoDuration getTimeout() {
    return timeout;
  }

  public void setTimeout(GoDuration timeout) {
    this.timeout = timeout;
  }
}
