package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The answer of {@link AgentApi#SNAPSHOT_DELTA} when there were no events to write. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NoDeltaSnapshot(String message) {

  public static final NoDeltaSnapshot NO_EVENTS =
      new NoDeltaSnapshot("no events since the last delta snapshot");
}
