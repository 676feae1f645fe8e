package cloud.gardener.druid.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DataConsistencyTest {

  private static final String REFUSED = "etcd's initial corruption check found this member's"
      + " data differs from its peers'";

  private final FakeCluster c = cluster();

  @Test
  void trueWhileEveryMemberAnswersAndNoCheckFoundAnything() {
    Condition d = DataConsistency.compute(c.snapshot()).orElseThrow();
    assertThat(d.getType()).isEqualTo(ConditionTypes.DATA_CONSISTENT);
    assertThat(d.getStatus()).isEqualTo(ConditionTypes.TRUE);
    assertThat(d.getReason()).isEqualTo("NoCorruptionFound");
  }

  @Test
  void aMemberRefusedAtItsInitialCheckIsNamedWithTheCure() {
    c.members.get(2).ready = false;
    c.members.get(2).corruption = REFUSED;
    Condition d = DataConsistency.compute(c.snapshot()).orElseThrow();
    assertThat(d.getStatus()).isEqualTo(ConditionTypes.FALSE);
    assertThat(d.getReason()).isEqualTo("CorruptionDetected");
    assertThat(d.getMessage()).contains("etcd-2 (" + REFUSED + ")")
        .contains("EtcdOpsTask replaceMemberVolume")
        .contains("kubectl druid replace-member-volume etcd etcd-2")
        .doesNotContain("etcd-0 (", "etcd-1 (");

    List<EtcdMemberStatus> members = MemberStatuses.compute(c.snapshot(), c.desired(),
        List.of(), c.snapshot().observedAt());
    assertThat(members.get(2).getDataCorruption()).isEqualTo(REFUSED);
    assertThat(members.get(2).getReason()).isEqualTo("DataCorrupted");
    assertThat(members.get(2).getAgentNotAnsweringSince()).as("its agent answered").isNull();
    assertThat(members.get(0).getDataCorruption()).isNull();
  }

  @Test
  void aCorruptAlarmOnAMemberIsNamed() {
    c.members.get(1).space = new MemberSpace(1, 1, 1, 1, 1, 1, 0, 0, 0, 0, List.of("CORRUPT"),
        10);
    Condition d = DataConsistency.compute(c.snapshot()).orElseThrow();
    assertThat(d.getStatus()).isEqualTo(ConditionTypes.FALSE);
    assertThat(d.getMessage()).contains("etcd-1 (etcd raised a CORRUPT alarm on this member")
        .contains("kubectl druid replace-member-volume etcd etcd-1");
  }

  /** etcd 3.5's periodic check raises CORRUPT with member 0: no member to name. */
  @Test
  void aCorruptAlarmNamingNoMemberSaysWhereToLook() {
    c.members.get(0).space = new MemberSpace(1, 1, 1, 1, 1, 1, 0, 0, 0, 0, List.of(), 10,
        List.of("CORRUPT"));
    Condition d = DataConsistency.compute(c.snapshot()).orElseThrow();
    assertThat(d.getStatus()).isEqualTo(ConditionTypes.FALSE);
    assertThat(d.getReason()).isEqualTo("CorruptionNotAttributed");
    assertThat(d.getMessage()).contains("naming no member").contains("follower-peer-id")
        .contains("kubectl druid replace-member-volume etcd MEMBER")
        .contains("etcdctl alarm disarm");
  }

  @Test
  void unknownWhileAMemberDoesNotAnswerAndAbsentWhenHibernated() {
    c.members.get(1).agentAnswers = false;
    Condition d = DataConsistency.compute(c.snapshot()).orElseThrow();
    assertThat(d.getStatus()).isEqualTo(ConditionTypes.UNKNOWN);
    assertThat(d.getMessage()).endsWith("not answering: etcd-1.");
    c.etcd.getSpec().setReplicas(0);
    assertThat(DataConsistency.compute(c.snapshot())).isEqualTo(Optional.empty());
  }

  private static FakeCluster cluster() {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", 3));
    for (int i = 0; i < 3; i++) {
      c.add(i, "new");
    }
    c.members.get(0).role = "Leader";
    return c;
  }
}
