package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createEtcdWithVolumes;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.ReplaceMemberVolumeConfig;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The member flows at the minors other than 3.6 (every other IT runs 3.6): a cluster formed,
 * scaled out by learners that join and are promoted, a member's volume replaced, the quorum
 * lost and recovered from the store, scaled in; every key kept and every member at the
 * Etcd's etcd.
 */
@WithOperator
class EtcdVersionFlowsIT {

  @ParameterizedTest(name = "etcd {0}")
  @ValueSource(strings = {"3.5", "3.7"})
  void everyMemberFlowWorksAt(String minor, TestNamespace ns, KubernetesClient client)
      throws Exception {
    EtcdRelease release = EtcdRelease.ofSpec(minor);
    EtcdBuilds.directory(minor);
    String name = "flows-" + minor.replace(".", "");
    createEtcdWithVolumes(client, ns, name, 1, "standard",
        e -> e.getSpec().getEtcd().setVersion(minor));
    awaitRolloutComplete(client, name, Duration.ofMinutes(4));
    QuorumLossRecovery.put(client, name, "/a/", 100);

    EtcdEdits.edit(client, name, e -> e.getSpec().setReplicas(3));
    assertMembersRun(awaitRolloutComplete(client, name, Duration.ofMinutes(4)), 3, release);
    QuorumLossRecovery.assertKeys(client, name, "/a/", 100, 3);

    createTask(client, name + "-replace", name, c -> {
      ReplaceMemberVolumeConfig r = new ReplaceMemberVolumeConfig();
      r.setMemberName(name + "-2");
      c.setReplaceMemberVolume(r);
    }, null);
    awaitTaskState(client, name + "-replace", "Succeeded");
    assertMembersRun(awaitRolloutComplete(client, name, Duration.ofMinutes(4)), 3, release);

    long revision = QuorumLossRecovery.put(client, name, "/b/", 100);
    QuorumLossRecovery.awaitBackedUp(client, name, revision);
    QuorumLossRecovery.lose(client, name, List.of(name + "-1", name + "-2"));
    QuorumLossRecovery.recover(client, name, name + "-recover");
    QuorumLossRecovery.assertKeys(client, name, "/a/", 100, 3);
    QuorumLossRecovery.assertKeys(client, name, "/b/", 100, 3);

    EtcdEdits.edit(client, name, e -> e.getSpec().setReplicas(1));
    assertMembersRun(awaitRolloutComplete(client, name, Duration.ofMinutes(4)), 1, release);
    QuorumLossRecovery.assertKeys(client, name, "/b/", 100, 1);
  }

  private static void assertMembersRun(Etcd etcd, int members, EtcdRelease release) {
    assertThat(etcd.getStatus().getEtcdClusterVersion()).startsWith(release.minor() + ".");
    assertThat(etcd.getStatus().getMembers()).hasSize(members)
        .allSatisfy(m -> assertThat(m.getEtcdVersion()).isEqualTo(release.version()));
  }
}
