package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The answer of {@link AgentApi#MEMBER_PROMOTE}: the promoted member's id (hex). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MemberPromoted(String promoted) {
}
