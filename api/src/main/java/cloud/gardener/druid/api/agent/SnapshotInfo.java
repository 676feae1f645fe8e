package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * One snapshot in the backup store: the answer of {@link AgentApi#SNAPSHOT_FULL} and
 * {@link AgentApi#SNAPSHOT_DELTA}, and the entries of {@link LatestSnapshots}. {@code kind} is
 * "Full" or "Incr" (upstream's words); {@code createdOn} an ISO-8601 instant.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SnapshotInfo(
    String kind, String name, long startRevision, long endRevision, String createdOn,
    boolean compressed, boolean isFinal) {
}
