package cloud.gardener.druid.operator.rollout;

import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.CreatePods;
import cloud.gardener.druid.operator.action.RolloutAction.TakeLeadership;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.ExistingClusterJoin;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.List;
import java.util.Optional;

/**
 * The rollout's steps for an Etcd that joins an existing cluster
 * ({@code spec.etcd.bootstrapWithExistingCluster}, docs/existing-cluster.md). Pure.
 */
final class ExistingClusterSteps {

  private ExistingClusterSteps() {
  }

  /**
   * While joining, members start one at a time and never all at once: the first member joins
   * the running cluster as a learner, its agent promotes it once it caught up, and the next
   * starts only after every member already started is a ready voting member (etcd admits one
   * learner at a time). No member ever bootstraps a cluster, also when none of ours is ready.
   */
  static Optional<RolloutAction> startWhileJoining(ClusterSnapshot s,
      List<MemberObservation> missing) {
    if (missing.isEmpty() || !ExistingClusterJoin.joining(s.etcd())) {
      return Optional.empty();
    }
    MemberObservation next = missing.get(0);
    Optional<String> notVoting = s.wanted().stream().filter(MemberObservation::podExists)
        .map(MemberObservation::whyNotVoting).flatMap(Optional::stream).findFirst();
    if (notVoting.isPresent()) {
      return Optional.of(new Wait(notVoting.get() + "; then " + next.name()
          + " joins the existing cluster"));
    }
    return Optional.of(new CreatePods(List.of(next.ordinal()),
        "joining the existing cluster, one member at a time"));
  }

  /**
   * Once every member of this Etcd votes, leadership moves to one of them when a member of
   * the existing cluster leads and the Etcd has a backup store: snapshots are taken by the
   * leader's agent, so the backups start with the join (a full snapshot first).
   */
  static Optional<RolloutAction> takeLeadership(ClusterSnapshot s) {
    if (ExistingClusterJoin.sourceMembers(s.etcd()).isEmpty() || !EtcdDefaults.hasStore(s.etcd())
        || s.leader().isPresent() || s.whyNotAllVote(null).isPresent()) {
      return Optional.empty();
    }
    Optional<String> foreignLeader = s.foreignLeader();
    if (foreignLeader.isEmpty()) {
      return Optional.empty();
    }
    MemberObservation to = s.wanted().get(0);
    return Optional.of(new TakeLeadership(to.ordinal(), to.name(),
        to.agent().map(AgentView::memberId).orElseThrow(), foreignLeader.get()));
  }
}
