package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The answer of {@link AgentApi#MEMBER_MOVE_LEADER}: the new leader's id (hex). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LeaderMoved(String leader) {
}
