package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One entry of etcd's member list, as a member's agent sees it; the id is hex. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Membership(String id, String name, boolean learner) {
}
