package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The answer of {@link AgentApi#MEMBER_REMOVE}: the removed member's id (hex). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MemberRemoved(String removed) {
}
