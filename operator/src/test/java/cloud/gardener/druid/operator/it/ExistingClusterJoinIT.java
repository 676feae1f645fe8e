package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.api.v1alpha1.AdditionalPeerUrls;
import cloud.gardener.druid.api.v1alpha1.BootstrapExistingMember;
import cloud.gardener.druid.api.v1alpha1.BootstrapWithExistingCluster;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.PeerTLSConfig;
import cloud.gardener.druid.api.v1alpha1.RetireSourceMembersConfig;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.cluster.Member;
import io.etcd.jetcd.options.GetOption;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Moving a running etcd cluster in without downtime: three plain etcd processes at the
 * operator's default minor, under a client that keeps writing, are joined by an Etcd with
 * {@code replicas: 3} (six members), the clients move to the Etcd's members, and the source
 * members are retired through an EtcdOpsTask (three members left, all the Etcd's). No request
 * fails, every key written before, during and after is read back, the cluster ID never
 * changes and the rollout predicate holds at the end.
 */
@WithOperator
@ResourceLock(ItSupport.CLIENT_LOAD)
class ExistingClusterJoinIT {

  @Test
  void joinsARunningClusterUnderWritesAndRetiresItsMembers(KubernetesClient client,
      TestNamespace ns, LocalCluster cluster) throws Exception {
    Path work = cluster.workDir().resolve("source").resolve(ns.name()).resolve("plain");
    try (SourceCluster source = SourceCluster.start(3, EtcdRelease.DEFAULT.minor(), work,
        SourceCluster.freeSubnet(0), Optional.empty())) {
      long written = moveIn(client, ns, source, "target", etcd -> { });
      // the backups alone give back every key, those written before the join too
      QuorumLossRecovery.lose(client, "target", List.of("target-0", "target-1", "target-2"));
      QuorumLossRecovery.recover(client, "target", "recover-target");
      try (Client c = EtcdClients.connect(EtcdClients.endpoints(client,
          ItSupport.etcd(client, "target")))) {
        assertEveryKey(c, "/target", written);
      }
    }
  }

  @Test
  void joinsAndRetiresWithPeerTlsOnBothSides(KubernetesClient client, TestNamespace ns,
      LocalCluster cluster) throws Exception {
    int subnet = SourceCluster.freeSubnet(1);
    Path work = cluster.workDir().resolve("source").resolve(ns.name()).resolve("tls");
    TestCertificates certs = TestCertificates.ca(work.resolve("certs"));
    String domain = "tls-target-peer." + ns.name() + ".svc";
    List<String> sans = new java.util.ArrayList<>(List.of("DNS:*." + domain,
        "DNS:*." + domain + ".cluster.local", "IP:127.0.0.1"));
    SourceCluster.addresses(3, subnet).forEach(a -> sans.add("IP:" + a));
    certs.issue("peer", sans);
    client.resource(certs.caSecret("tls-target-peer-ca")).create();
    client.resource(certs.identitySecret("tls-target-peer-server", "peer")).create();
    try (SourceCluster source = SourceCluster.start(3, EtcdRelease.DEFAULT.minor(), work,
        subnet, Optional.of(certs))) {
      moveIn(client, ns, source, "tls-target",
          etcd -> etcd.getSpec().getEtcd().setPeerUrlTls(peerTls("tls-target")));
      assertThat(source.joinSpec().getMembers()).allSatisfy(m ->
          assertThat(m.getPeerUrls()).allMatch(u -> u.startsWith("https://")));
    }
  }

  /**
   * The source is an Etcd of this operator whose members advertise a second peer URL
   * ({@code additionalAdvertisePeerURLs}, here the pods' names under {@code cluster.local}):
   * the membership lists both, another Etcd joins through the second ones and retires the
   * first Etcd's members (the way back out to another operator, and in from one that sets
   * the same field).
   */
  @Test
  void anEtcdOfThisOperatorIsJoinedThroughItsAdditionalPeerUrls(KubernetesClient client,
      TestNamespace ns) throws Exception {
    Etcd old = load("etcd-3-local.yaml", ns.name());
    old.getMetadata().setName("old");
    old.getSpec().getBackup().getStore().setPrefix(ns.name() + "/old");
    List<AdditionalPeerUrls> extra = new java.util.ArrayList<>();
    BootstrapWithExistingCluster join = new BootstrapWithExistingCluster();
    List<BootstrapExistingMember> members = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String host = "old-" + i + ".old-peer." + ns.name() + ".svc";
      AdditionalPeerUrls a = new AdditionalPeerUrls();
      a.setMemberName("old-" + i);
      a.setUrls(List.of("http://" + host + ".cluster.local:2380"));
      extra.add(a);
      BootstrapExistingMember m = new BootstrapExistingMember();
      m.setName("old-" + i);
      m.setPeerUrls(List.of("http://" + host + ".cluster.local:2380"));
      members.add(m);
    }
    old.getSpec().getEtcd().setAdditionalAdvertisePeerURLs(extra);
    client.resource(old).create();
    Etcd ready = ItSupport.awaitRolloutComplete(client, "old", Duration.ofMinutes(4));
    try (Client c = EtcdClients.connect(EtcdClients.endpoints(client, ready))) {
      await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
          assertThat(c.getClusterClient().listMember().get(10, TimeUnit.SECONDS).getMembers())
              .hasSize(3).allSatisfy(m -> assertThat(m.getPeerURIs()).hasSize(2)
                  .anyMatch(u -> u.getHost().endsWith(".svc.cluster.local"))));
    }
    join.setMembers(members);
    join.setClientEndpoints(EtcdClients.endpoints(client, ready));
    moveIn(client, ns, new Source(EtcdClients.endpoints(client, ready), join), "new",
        etcd -> { });
    client.resources(Etcd.class).withName("old").delete();
  }

  /** What the test knows of a source: its client URLs, the join spec and its member names. */
  record Source(List<String> clientUrls, BootstrapWithExistingCluster join) {
    static Source of(SourceCluster c) {
      return new Source(c.clientUrls(), c.joinSpec());
    }

    List<String> names() {
      return join.getMembers().stream().map(m -> m.getName()).toList();
    }

    long clusterId() throws Exception {
      try (Client c = EtcdClients.connect(clientUrls)) {
        return clusterIdVia(c);
      }
    }
  }

  private static long moveIn(KubernetesClient client, TestNamespace ns, SourceCluster cluster,
      String name, java.util.function.Consumer<Etcd> customize) throws Exception {
    return moveIn(client, ns, Source.of(cluster), name, customize);
  }

  /** Moves the source into the Etcd {@code name}; how many keys the clients wrote. */
  private static long moveIn(KubernetesClient client, TestNamespace ns, Source source,
      String name, java.util.function.Consumer<Etcd> customize) throws Exception {
    long clusterId = source.clusterId();
    AtomicReference<List<String>> endpoints = new AtomicReference<>(source.clientUrls());
    String prefix = "/" + name;
    try (LoadClient load = new LoadClient(endpoints::get, prefix, Duration.ofMinutes(12))) {
      awaitWritten(load, 50);
      Etcd etcd = load("etcd-3-local.yaml", ns.name());
      etcd.getMetadata().setName(name);
      etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/" + name);
      etcd.getSpec().getEtcd().setBootstrapWithExistingCluster(source.join());
      etcd.getSpec().getBackup().setDeltaSnapshotPeriod(
          cloud.gardener.druid.api.types.GoDuration.parse("2s"));
      customize.accept(etcd);
      client.resource(etcd).create();

      Etcd joined = awaitJoined(client, name);
      assertThat(joined.getStatus().getBootstrapWithExistingCluster().getMembers())
          .extracting(m -> m.getName()).containsExactlyElementsOf(source.names());
      List<String> ours = EtcdClients.endpoints(client, joined);
      try (Client c = EtcdClients.connect(ours)) {
        List<Member> members = c.getClusterClient().listMember().get(10, TimeUnit.SECONDS)
            .getMembers();
        assertThat(members).hasSize(3 + source.names().size()).noneMatch(Member::isLearner);
        assertThat(clusterIdVia(c)).isEqualTo(clusterId);
      }
      // backups start with the join: a full snapshot by a member of the Etcd
      await().atMost(Duration.ofMinutes(2)).until(() -> QuorumLossRecovery
          .snapshotRevision(client, name + "-full-snap"),
          revision -> revision > 0);
      endpoints.set(Stream.concat(source.clientUrls().stream(), ours.stream()).toList());
      awaitWritten(load, load.written() + 50);
      // clients move to the Etcd's members before the source members leave
      endpoints.set(ours);
      awaitWritten(load, load.written() + 50);

      createTask(client, "retire-" + name, name,
          c -> c.setRetireSourceMembers(new RetireSourceMembersConfig()), null);
      EtcdOpsTask task = awaitTaskState(client, "retire-" + name, "Succeeded");
      assertThat(task.getStatus().getLastOperation().getDescription())
          .contains(source.names());
      awaitWritten(load, load.written() + 50);
      load.stop();

      assertThat(load.failures()).as("failed client requests of " + load.requests()
          + " (" + load.retries() + " retried on UNAVAILABLE)").isEmpty();
      try (Client c = EtcdClients.connect(ours)) {
        List<Member> members = c.getClusterClient().listMember().get(10, TimeUnit.SECONDS)
            .getMembers();
        assertThat(members).extracting(Member::getName)
            .containsExactlyInAnyOrder(name + "-0", name + "-1", name + "-2");
        assertThat(clusterIdVia(c)).isEqualTo(clusterId);
        assertEveryKey(c, prefix, load.written());
        long last = c.getKVClient().get(EtcdClients.bytes(prefix + "/" + (load.written() - 1)))
            .get(10, TimeUnit.SECONDS).getHeader().getRevision();
        // every write since the join is in the backups: full and delta snapshots reach it
        QuorumLossRecovery.awaitBackedUp(client, name, last);
      }
      Etcd done = ItSupport.awaitRolloutComplete(client, name, Duration.ofMinutes(2));
      assertThat(Condition.find(done.getStatus().getConditions(),
          ConditionTypes.BOOTSTRAPPED_WITH_EXISTING_CLUSTER)).get()
          .satisfies(cnd -> assertThat(cnd.getStatus()).isEqualTo("True"));
      return load.written();
    }
  }

  /** The rollout predicate and the join's condition hold in the same status. */
  private static Etcd awaitJoined(KubernetesClient client, String name) {
    return await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofMillis(500))
        .ignoreExceptions().until(() -> ItSupport.etcd(client, name), e ->
            RolloutCompletion.isComplete(e) && Condition.find(e.getStatus().getConditions(),
                ConditionTypes.BOOTSTRAPPED_WITH_EXISTING_CLUSTER)
                .filter(c -> "True".equals(c.getStatus())).isPresent());
  }

  private static void awaitWritten(LoadClient load, long atLeast) {
    await().atMost(Duration.ofMinutes(2)).until(() -> load.written() >= atLeast
        || !load.failures().isEmpty());
  }

  private static long clusterIdVia(Client c) throws Exception {
    return c.getClusterClient().listMember().get(10, TimeUnit.SECONDS).getHeader()
        .getClusterId();
  }

  private static void assertEveryKey(Client c, String prefix, long written) throws Exception {
    var kvs = c.getKVClient().get(EtcdClients.bytes(prefix + "/"),
        GetOption.builder().isPrefix(true).build()).get(30, TimeUnit.SECONDS).getKvs();
    Map<String, String> read = new HashMap<>();
    kvs.forEach(kv -> read.put(kv.getKey().toString(StandardCharsets.UTF_8),
        kv.getValue().toString(StandardCharsets.UTF_8)));
    for (long i = 0; i < written; i++) {
      assertThat(read.get(prefix + "/" + i)).as(prefix + "/" + i).isEqualTo("v" + i);
    }
  }

  private static PeerTLSConfig peerTls(String etcd) {
    PeerTLSConfig tls = new PeerTLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName(etcd + "-peer-ca");
    ca.setDataKey("ca.crt");
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName(etcd + "-peer-server");
    tls.setServerTLSSecretRef(server);
    return tls;
  }
}
