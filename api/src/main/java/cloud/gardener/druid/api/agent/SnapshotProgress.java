package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The answer of {@link AgentApi#SNAPSHOT_PROGRESS}: how far the snapshot an agent writes (or
 * wrote last) is. {@code kind} is {@link #FULL} or {@link #DELTA}; {@code bytesDone} are the
 * bytes read from etcd of an estimated {@code bytesTotal} (0 when unknown); {@code startedAt}
 * is an ISO-8601 instant.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SnapshotProgress(String kind, long bytesDone, long bytesTotal, String startedAt,
    boolean running) {

  public static final String FULL = "full";
  public static final String DELTA = "delta";
}
