package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.Done;
import cloud.gardener.druid.operator.action.RolloutAction.RemoveSourceMember;
import cloud.gardener.druid.operator.action.RolloutAction.TakeLeadership;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.model.ExistingClusterJoin;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.List;
import java.util.Optional;

/**
 * The next step of retiring the source members of an Etcd that joined an existing cluster
 * (pure), one of the rollout's actions: only while every member of the Etcd is a ready voting
 * member; first leadership moves to a member of the Etcd ({@link TakeLeadership}), then the
 * source members recorded at the join leave the membership one at a time, through the leader
 * ({@link RemoveSourceMember}); {@link Done} when none is left. etcd refuses a removal that
 * would cost the cluster its quorum (its strict reconfiguration check), so a source member
 * that must still vote is not removed while others are down.
 */
final class RetirePlan {

  RolloutAction next(ClusterSnapshot s) {
    Optional<String> notVoting = s.whyNotAllVote(null);
    if (notVoting.isPresent()) {
      return new Wait(notVoting.get());
    }
    List<String> source = ExistingClusterJoin.sourceNames(s.etcd());
    List<Membership> left = s.foreignMembers().stream()
        .filter(m -> source.contains(m.name())).toList();
    if (left.isEmpty()) {
      return new Done();
    }
    Optional<MemberObservation> leader = s.leader();
    if (leader.isEmpty()) {
      Optional<String> from = s.foreignLeader();
      if (from.isEmpty()) {
        return new Wait("a leader");
      }
      MemberObservation to = s.wanted().get(0);
      return new TakeLeadership(to.ordinal(), to.name(),
          to.agent().map(AgentView::memberId).orElseThrow(), from.get());
    }
    Membership next = left.get(left.size() - 1);
    return new RemoveSourceMember(next.name(), next.id(), leader.get().ordinal());
  }
}
