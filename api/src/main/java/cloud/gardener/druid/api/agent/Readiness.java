package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The answer of {@link AgentApi#READYZ}: initialised, and etcd answers as a voting member (a
 * learner refuses client requests).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Readiness(boolean ready) {
}
