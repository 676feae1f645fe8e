package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.observe.ClusterHealth;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;

/**
 * The next step of an on-demand defragmentation (pure): one member at a time and only while
 * every member is ready and in sync; followers first, by ordinal; then leadership moves from
 * the leader to a follower that is already defragmented, and the former leader, now a
 * follower, is defragmented last. A single member is defragmented in place.
 */
final class DefragmentPlan {

  /** A step of the defragmentation. */
  sealed interface Step {
  }

  /** Wait and observe again. */
  record Wait(String reason) implements Step {
  }

  /** Defragment this member (its etcd blocks while it runs). */
  record Defragment(MemberObservation member) implements Step {
  }

  /** Hand leadership from {@code leader} to {@code to} first. */
  record MoveLeader(MemberObservation leader, MemberObservation to) implements Step {
  }

  /** Every member is defragmented. */
  record Done() implements Step {
  }

  private final ClusterHealth health;

  DefragmentPlan(ClusterHealth health) {
    this.health = health;
  }

  /** The next step, given the members defragmented so far (by name). */
  Step next(ClusterSnapshot s, Set<String> done) {
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
      return new Defragment(follower.get());
    }
    if (s.wanted().size() == 1) {
      return new Defragment(leader);
    }
    return s.leadershipTarget(leader, m -> true).<Step>map(to -> new MoveLeader(leader, to))
        .orElseGet(() -> new Wait("a ready voting member to take over leadership from "
            + leader.name()));
  }

  static String memberId(MemberObservation m) {
    return m.agent().map(AgentView::memberId).orElseThrow();
  }
}
