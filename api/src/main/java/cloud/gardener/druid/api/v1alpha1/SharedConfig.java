package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonProperty;

/** Configuration shared by etcd and its agent. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SharedConfig {

  private AutoCompactionMode autoCompactionMode;

  @JsonPropertyDescription("Retention of auto compaction, e.g. 30m or a revision count.")
  private String autoCompactionRetention;


  public AutoCompactionMode getAutoCompactionMode() {
    return autoCompactionMode;
  }

  public void setAutoCompactionMode(AutoCompactionMode autoCompactionMode) {
    this.autoCompactionMode = autoCompactionMode;
  }

  public String getAutoCompactionRetention() {
    return autoCompactionRetention;
  }

  public void setAutoCompactionRetention(String autoCompactionRetention) {
    this.autoCompactionRetention = autoCompactionRetention;
  }
  /** How etcd compacts its history. */
  public enum AutoCompactionMode {
    @JsonProperty("periodic")
    PERIODIC,
    @JsonProperty("revision")
    REVISION
  }
}
