package cloud.gardener.druid.agent.defrag;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.defrag.Defragmenter.Peer;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.agent.MemberStatus;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The scheduled defragmentation's steps and its member safety rule, against a fake cluster. */
class DefragmenterTest {

  final FakeCluster cluster = new FakeCluster();

  @Test
  void defragmentsEveryFollowerThenMovesLeadershipAndDefragmentsTheFormerLeaderLast()
      throws Exception {
    new Defragmenter(cluster, "m0").runIfLeader();
    assertThat(cluster.steps).containsExactly("defragment m1", "defragment m2", "move leader m1",
        "defragment self");
  }

  @Test
  void neverDefragmentsTheLeaderWhileAFollowerIsUnhealthy() throws Exception {
    cluster.down.put("m2", true);
    new Defragmenter(cluster, "m0").runIfLeader();
    assertThat(cluster.steps).as("neither the leader nor another follower is blocked while a"
        + " follower is down").isEmpty();
  }

  @Test
  void stopsBeforeTheLeaderWhenAFollowerFallsBehindDuringTheRun() throws Exception {
    cluster.lagAfterDefragment = "m2";
    new Defragmenter(cluster, "m0").runIfLeader();
    assertThat(cluster.steps).containsExactly("defragment m1", "defragment m2");
  }

  @Test
  void aFollowerDoesNothing() throws Exception {
    cluster.role = MemberStatus.Role.Member;
    new Defragmenter(cluster, "m0").runIfLeader();
    assertThat(cluster.steps).isEmpty();
  }

  @Test
  void aSingleMemberDefragmentsItself() throws Exception {
    cluster.peers.clear();
    new Defragmenter(cluster, "m0").runIfLeader();
    assertThat(cluster.steps).containsExactly("defragment self");
  }

  @Test
  void aFollowerIsInSyncOnlyWhenItAnswersVotesFollowsTheLeaderAndIsCloseBehind() {
    MemberStatus leader = memberStatus("a", "a", MemberStatus.Role.Leader, 5_000, false);
    Peer p = new Peer(2, "m2", URI.create("http://127.0.0.1:1"));
    assertThat(Defragmenter.whyNotInSync(leader, p,
        Optional.of(memberStatus("b", "a", MemberStatus.Role.Member, 4_500, false)))).isEmpty();
    assertThat(Defragmenter.whyNotInSync(leader, p, Optional.empty())).hasValueSatisfying(
        w -> assertThat(w).contains("does not answer"));
    assertThat(Defragmenter.whyNotInSync(leader, p,
        Optional.of(memberStatus("b", "a", MemberStatus.Role.Learner, 5_000, true))))
        .hasValueSatisfying(w -> assertThat(w).contains("learner"));
    assertThat(Defragmenter.whyNotInSync(leader, p,
        Optional.of(memberStatus("b", "0", MemberStatus.Role.Member, 5_000, false))))
        .hasValueSatisfying(w -> assertThat(w).contains("does not follow"));
    assertThat(Defragmenter.whyNotInSync(leader, p,
        Optional.of(memberStatus("b", "a", MemberStatus.Role.Member,
            5_000 - AgentApi.MAX_RAFT_LAG - 1, false)))).hasValueSatisfying(w -> assertThat(w).contains("raft entries behind"));
  }

  static MemberStatus memberStatus(String id, String leaderId, MemberStatus.Role role, long raftIndex,
      boolean learner) {
    return new MemberStatus(id, "", role, "c", 1, raftIndex, 1, leaderId, learner, 0, "3.6",
        "3.6.0", null, "3.6.0");
  }

  /** A leader m0 (id a) with followers m1 and m2; records each step. */
  static final class FakeCluster implements Defragmenter.Cluster {
    MemberStatus.Role role = MemberStatus.Role.Leader;
    final List<Peer> peers = new ArrayList<>(List.of(
        new Peer(1, "m1", URI.create("http://127.0.0.1:1")),
        new Peer(2, "m2", URI.create("http://127.0.0.1:2"))));
    final Map<String, Boolean> down = new HashMap<>();
    final List<String> steps = new ArrayList<>();
    String lagAfterDefragment;
    boolean lagging;

    @Override
    public MemberStatus self() {
      return memberStatus("a", role == MemberStatus.Role.Leader ? "a" : "b", role, 10_000, false);
    }

    @Override
    public List<Peer> followers(long selfId) {
      return peers;
    }

    @Override
    public Optional<MemberStatus> status(Peer peer) {
      if (down.getOrDefault(peer.name(), false)) {
        return Optional.empty();
      }
      long index = lagging && peer.name().equals(lagAfterDefragment) ? 100 : 10_000;
      return Optional.of(memberStatus(Long.toHexString(peer.id()), "a", MemberStatus.Role.Member,
          index, false));
    }

    @Override
    public void defragment(Peer peer) {
      steps.add("defragment " + peer.name());
      if (peer.name().equals(lagAfterDefragment)) {
        lagging = true;
      }
    }

    @Override
    public void moveLeader(Peer to) {
      steps.add("move leader " + to.name());
    }

    @Override
    public void defragmentSelf() {
      steps.add("defragment self");
    }
  }
}
