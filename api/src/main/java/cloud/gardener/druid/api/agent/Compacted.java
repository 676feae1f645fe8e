package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The answer of {@link AgentApi#CLUSTER_COMPACT}: the revision the key history starts at. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Compacted(long revision) {
}
