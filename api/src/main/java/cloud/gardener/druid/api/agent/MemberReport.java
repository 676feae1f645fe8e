package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The answer of {@link AgentApi#MEMBER_STATUS}: the member's name, its initialisation
 * ({@link InitStatus}'s words, and why it failed), its restore while one runs or the last one
 * (null before any), and once etcd runs, etcd's view of this member and the membership (null
 * when this member cannot list it: a learner may not), and its space ({@link MemberSpace},
 * null before the agent's first sample), and why etcd refused this member's data (its initial
 * corruption check found it differs from the peers'; an addition, left out when it did not, so
 * that a member without it writes what agents wrote before).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MemberReport(
    String name, String initialization, String initializationError, RestoreReport restore,
    MemberStatus etcd, List<Membership> members, MemberSpace space,
    @JsonInclude(JsonInclude.Include.NON_NULL) String corruption) {

  public MemberReport(String name, String initialization, String initializationError,
      RestoreReport restore, MemberStatus etcd, List<Membership> members, MemberSpace space) {
    this(name, initialization, initializationError, restore, etcd, members, space, null);
  }
}
