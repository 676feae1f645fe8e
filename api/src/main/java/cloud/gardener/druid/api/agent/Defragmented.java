package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The answer of {@link AgentApi#DEFRAGMENT}: the defragmented member's name. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Defragmented(String defragmented) {
}
