package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.api.v1alpha1.BootstrapWithExistingCluster;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.cluster.Member;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A join that cannot succeed stays in {@code False/BootstrapInProgress} with a message that
 * says why, starts only its first member (never a cluster of its own), and changes nothing
 * of the source: an unreachable source, a member name the source does not have, and a source
 * at another etcd minor.
 */
@WithOperator
class ExistingClusterRefusalIT {

  @Test
  void anUnreachableSourceIsReportedAndNoClusterIsBootstrapped(KubernetesClient client,
      TestNamespace ns) throws Exception {
    BootstrapWithExistingCluster join = new BootstrapWithExistingCluster();
    String nowhere = SourceCluster.addresses(1, SourceCluster.freeSubnet(5)).get(0);
    cloud.gardener.druid.api.v1alpha1.BootstrapExistingMember m =
        new cloud.gardener.druid.api.v1alpha1.BootstrapExistingMember();
    m.setName("src-0");
    m.setPeerUrls(List.of("http://" + nowhere + ":2380"));
    join.setMembers(List.of(m));
    join.setClientEndpoints(List.of("http://" + nowhere + ":2379"));
    create(client, ns, "unreachable", join);
    assertStuck(client, "unreachable", "joining the existing cluster: none of [",
        "http://" + nowhere + ":2379", "answers");
  }

  @Test
  void aMemberNameTheSourceDoesNotHaveIsReportedAndTheSourceIsUntouched(
      KubernetesClient client, TestNamespace ns, LocalCluster cluster) throws Exception {
    Path work = cluster.workDir().resolve("source").resolve(ns.name()).resolve("name");
    try (SourceCluster source = SourceCluster.start(1, EtcdRelease.DEFAULT.minor(), work,
        SourceCluster.freeSubnet(6), Optional.empty())) {
      List<Member> before = source.members();
      BootstrapWithExistingCluster join = source.joinSpec();
      join.getMembers().get(0).setName("not-there");
      create(client, ns, "wrong-name", join);
      assertStuck(client, "wrong-name", "the existing cluster has no member not-there");
      assertUnchanged(source, before);
    }
  }

  @Test
  void aSourceAtAnotherMinorIsReportedBeforeAnyMemberIsAdded(KubernetesClient client,
      TestNamespace ns, LocalCluster cluster) throws Exception {
    Path work = cluster.workDir().resolve("source").resolve(ns.name()).resolve("minor");
    try (SourceCluster source = SourceCluster.start(1, "3.5", work,
        SourceCluster.freeSubnet(7), Optional.empty())) {
      List<Member> before = source.members();
      create(client, ns, "other-minor", source.joinSpec());
      assertStuck(client, "other-minor", "etcd version mismatch", "runs etcd 3.5.",
          "set spec.etcd.version to 3.5");
      assertUnchanged(source, before);
    }
  }

  private static void create(KubernetesClient client, TestNamespace ns, String name,
      BootstrapWithExistingCluster join) throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName(name);
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/" + name);
    etcd.getSpec().getEtcd().setBootstrapWithExistingCluster(join);
    client.resource(etcd).create();
  }

  /** The condition says why, the first member alone was started and it serves no cluster. */
  private static void assertStuck(KubernetesClient client, String name, String... why) {
    await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
        .ignoreExceptions().untilAsserted(() -> {
          Condition c = ItSupport.condition(client, name,
              ConditionTypes.BOOTSTRAPPED_WITH_EXISTING_CLUSTER);
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getReason()).isEqualTo("BootstrapInProgress");
          assertThat(c.getMessage()).contains(name + "-0: ").contains(why);
        });
    assertThat(ItSupport.pods(client, name)).extracting(p -> p.getMetadata().getName())
        .containsExactly(name + "-0");
    Etcd etcd = ItSupport.etcd(client, name);
    assertThat(etcd.getStatus().getBootstrapWithExistingCluster()).isNull();
    assertThat(etcd.getStatus().getReadyReplicas()).isZero();
  }

  private static void assertUnchanged(SourceCluster source, List<Member> before)
      throws Exception {
    List<Member> after = source.members();
    assertThat(after).extracting(Member::getId)
        .containsExactlyElementsOf(before.stream().map(Member::getId).toList());
    assertThat(after).noneMatch(Member::isLearner);
    assertThat(after).extracting(Member::getPeerURIs)
        .containsExactlyElementsOf(before.stream().map(Member::getPeerURIs).toList());
  }
}
