package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * The answer of {@link AgentApi#SNAPSHOT_LATEST}: the snapshots a restore would read now, the
 * latest full one (null when there is none) and the deltas after it.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LatestSnapshots(SnapshotInfo fullSnapshot, List<SnapshotInfo> deltaSnapshots) {
}
