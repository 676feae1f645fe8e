package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The answer of {@link AgentApi#HEALTHZ}: etcd answers a status request. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Health(boolean health) {
}
