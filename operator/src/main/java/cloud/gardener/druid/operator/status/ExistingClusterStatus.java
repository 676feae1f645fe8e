package cloud.gardener.druid.operator.status;

import static cloud.gardener.druid.api.ConditionTypes.FALSE;
import static cloud.gardener.druid.api.ConditionTypes.TRUE;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.BootstrapExistingMember;
import cloud.gardener.druid.api.v1alpha1.BootstrapStatus;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.operator.model.ExistingClusterJoin;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code status.bootstrapWithExistingCluster} and the condition
 * {@code BootstrappedWithExistingCluster} (upstream's): the record is written once, by the
 * first observation that sees every member of this Etcd vote while joining, and kept from
 * then on; the condition is True exactly when the record exists (sticky, as upstream's).
 */
final class ExistingClusterStatus {

  static final String TYPE = ConditionTypes.BOOTSTRAPPED_WITH_EXISTING_CLUSTER;

  private ExistingClusterStatus() {
  }

  static BootstrapStatus record(ClusterSnapshot s, EtcdStatus previous) {
    if (previous.getBootstrapWithExistingCluster() != null) {
      return previous.getBootstrapWithExistingCluster();
    }
    if (!ExistingClusterJoin.joining(s.etcd()) || !allJoined(s)) {
      return null;
    }
    BootstrapStatus record = new BootstrapStatus();
    record.setJoinedAt(s.observedAt().toString());
    List<BootstrapStatus.Member> members = new ArrayList<>();
    for (BootstrapExistingMember m : ExistingClusterJoin.sourceMembers(s.etcd())) {
      BootstrapStatus.Member member = new BootstrapStatus.Member();
      member.setName(m.getName());
      member.setPeerUrls(List.copyOf(m.getPeerUrls()));
      members.add(member);
    }
    record.setMembers(members);
    return record;
  }

  static Optional<Condition> condition(ClusterSnapshot s, BootstrapStatus record) {
    if (record != null) {
      return Optional.of(Conditions.of(TYPE, TRUE, "BootstrapSucceeded",
          "All members have successfully joined the existing cluster"));
    }
    if (!ExistingClusterJoin.joining(s.etcd())) {
      return Optional.empty();
    }
    Optional<String> failure = s.wanted().stream()
        .flatMap(m -> m.initFailure().map(f -> m.name() + ": " + f).stream()).findFirst();
    long voting = s.wanted().stream().filter(MemberObservation::votes).count();
    String progress = voting + " of " + s.replicas() + " members have joined";
    return Optional.of(Conditions.of(TYPE, FALSE, "BootstrapInProgress", failure
        .map(f -> "Not all members have joined the cluster yet (" + progress + "); " + f)
        .orElseGet(() -> "Not all members have joined the cluster yet (" + progress
            + s.whyNotAllVote(null).map(w -> "; " + w).orElse("") + ")")));
  }

  private static boolean allJoined(ClusterSnapshot s) {
    return s.replicas() > 0 && s.wanted().stream().allMatch(MemberObservation::podExists)
        && s.whyNotAllVote(null).isEmpty();
  }
}
