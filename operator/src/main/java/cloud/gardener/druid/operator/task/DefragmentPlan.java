package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.Defragment;
import cloud.gardener.druid.operator.action.RolloutAction.Done;
import cloud.gardener.druid.operator.action.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.ClusterHealth;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;

/**
 * The next step of an on-demand defragmentation (pure), one of the rollout's actions: one
 * member at a time and only while every member is ready and in sync; followers first, by
 * ordinal ({@link Defragment}); then leadership moves from the leader to a follower that is
 * already defragmented ({@link MoveLeader}), and the former leader, now a follower, is
 * defragmented last; {@link Wait} to observe again, {@link Done} when every member is. A
 * single member is defragmented in place.
 */
final class DefragmentPlan {

  private final ClusterHealth health;

  DefragmentPlan(ClusterHealth health) {
    this.health = health;
  }

  /** The next step, given the members defragmented so far (by name). */
  RolloutAction next(ClusterSnapshot s, Set<String> done) {
    if (s.wanted().stream().allMatch(m -> done.contains(m.name()))) {
      return new Done();
    }
    if (!s.surplus().isEmpty()) {
      return new Wait("member " + s.surplus().get(0).name() + " is being removed");
    }
    Optional<String> unsafe = health.whyNotSafeToRoll(s);
    if (unsafe.isPresent()) {
      return new Wait(unsafe.get());
    }
    MemberObservation leader = s.leader().orElseThrow();
    Optional<MemberObservation> follower = s.wanted().stream()
        .filter(m -> !done.contains(m.name()) && !m.name().equals(leader.name()))
        .min(Comparator.comparingInt(MemberObservation::ordinal));
    if (follower.isPresent()) {
      return defragment(follower.get());
    }
    if (s.wanted().size() == 1) {
      return defragment(leader);
    }
    return s.leadershipTarget(leader, m -> true).<RolloutAction>map(to -> new MoveLeader(
        leader.ordinal(), leader.name(), to.agent().map(AgentView::memberId).orElseThrow(),
        to.name()))
        .orElseGet(() -> new Wait("a ready voting member to take over leadership from "
            + leader.name()));
  }

  private static Defragment defragment(MemberObservation m) {
    return new Defragment(m.ordinal(), m.name());
  }
}
