package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.condition;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * etcd's client URLs with TLS ({@code spec.etcd.clientUrlTls}) and server certificates as
 * Gardener issues them: DNS names only ({@code <etcd>-local}, the client service, the members'
 * peer names), no address, since a pod's address is not known before it runs. The agents reach
 * their own etcd, each other and the store through them; a client with a certificate of the
 * CA reads and writes; snapshots are taken.
 */
@WithOperator
class ClientTlsIT {

  @Test
  void membersWithDnsOnlyServerCertificatesComeUpServeTlsClientsAndSnapshot(
      KubernetesClient client, TestNamespace ns, LocalCluster cluster) throws Exception {
    String name = "ctls";
    TestCertificates certs = TestCertificates.ca(cluster.workDir().resolve("certs")
        .resolve(ns.name()));
    String peer = name + "-peer";
    String service = name + "-client";
    certs.issue("server", List.of("DNS:" + name + "-local", "DNS:" + service,
        "DNS:" + service + "." + ns.name(), "DNS:" + service + "." + ns.name() + ".svc",
        "DNS:" + service + "." + ns.name() + ".svc.cluster.local", "DNS:*." + peer,
        "DNS:*." + peer + "." + ns.name(), "DNS:*." + peer + "." + ns.name() + ".svc",
        "DNS:*." + peer + "." + ns.name() + ".svc.cluster.local"));
    certs.issue("client", List.of("DNS:etcd-client"));
    client.resource(certs.caSecret(name + "-ca")).create();
    client.resource(certs.identitySecret(name + "-server", "server")).create();
    client.resource(certs.identitySecret(name + "-client-tls", "client")).create();

    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName(name);
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/" + name);
    etcd.getSpec().getBackup().setDeltaSnapshotPeriod(GoDuration.parse("2s"));
    etcd.getSpec().getEtcd().setClientUrlTls(tls(name));
    client.resource(etcd).create();
    Etcd ready = awaitRolloutComplete(client, name, Duration.ofMinutes(4));

    List<String> endpoints = EtcdClients.endpoints(client, ready).stream()
        .map(e -> e.replace("http://", "https://")).toList();
    long revision;
    try (Client tlsClient = Client.builder().endpoints(endpoints.toArray(String[]::new))
        .authority(service + "." + ns.name() + ".svc")
        .sslContext(b -> b.trustManager(certs.file("ca.crt").toFile())
            .keyManager(certs.file("client.crt").toFile(), certs.file("client.key").toFile()))
        .build()) {
      revision = tlsClient.getKVClient().put(EtcdClients.bytes("/tls/key"),
          EtcdClients.bytes("v")).get(20, TimeUnit.SECONDS).getHeader().getRevision();
      assertThat(EtcdClients.get(tlsClient.getKVClient(), "/tls/key")).isEqualTo("v");
    }
    QuorumLossRecovery.awaitBackedUp(client, name, revision);
    await().atMost(Duration.ofSeconds(60)).until(
        () -> condition(client, name, ConditionTypes.BACKUP_READY),
        c -> ConditionTypes.TRUE.equals(c.getStatus()));
  }

  private static TLSConfig tls(String name) {
    TLSConfig tls = new TLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName(name + "-ca");
    ca.setDataKey("ca.crt");
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName(name + "-server");
    tls.setServerTLSSecretRef(server);
    SecretReference clientIdentity = new SecretReference();
    clientIdentity.setName(name + "-client-tls");
    tls.setClientTLSSecretRef(clientIdentity);
    return tls;
  }
}
