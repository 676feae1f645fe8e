package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.model.LocalStore;
import cloud.gardener.druid.operator.model.LocalStoreLayout;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl druid backups} against the local control plane: a Local store (a directory of
 * this machine) and an S3 store (s3proxy on loopback) reached with the Etcd's store secret.
 */
@LocalKubernetes
class CtlBackupsIT {

  static final Duration WAIT = Kubectl.WAIT;
  static Kubectl kubectl;

  @BeforeAll
  static void installCrds(LocalCluster cluster, TestNamespace ns) {
    try (KubernetesClient admin = cluster.newClient(null)) {
      CrdInstaller.install(admin, "druid-cli-tests");
    }
    kubectl = new Kubectl(cluster.kubeconfig(), ns.name());
  }

  @Test
  void backupsListsTheLocalStoresSnapshots(KubernetesClient client, @TempDir Path root)
      throws Exception {
    Etcd etcd = CtlCommandsIT.create(client, "bk-a", null);
    Path v2 = Files.createDirectories(Path.of(LocalStore.hostPath(root.toString(),
            LocalStoreLayout.PER_NAMESPACE, kubectl.namespace(),
            etcd.getSpec().getBackup().getStore()))
        .resolve(etcd.getSpec().getBackup().getStore().getPrefix()).resolve("v2"));
    Files.write(v2.resolve("Full-00000000-00000010-1764547200"), new byte[2048]);
    Files.write(v2.resolve("Incr-00000011-00000020-1764547220.gz"), new byte[100]);

    Kubectl.Run table = kubectl.run("backups", "bk-a", "--local-store-root", root.toString());
    assertThat(table.code()).isZero();
    assertThat(table.out()).contains("Full", "Delta", "2.0 KiB", "100 B",
        "1 full and 1 delta snapshots, 2.1 KiB", "newest revision 20");
    JsonNode json = new ObjectMapper().readTree(kubectl.run("backups", "bk-a", "--local-store-root",
        root.toString(), "-o", "json").out());
    assertThat(json.at("/items/0/endRevision").asLong()).isEqualTo(10);
    assertThat(json.at("/items/1/kind").asText()).isEqualTo("Delta");
    assertThat(json.at("/items/1/sizeBytes").asLong()).isEqualTo(100);
  }

  @Test
  void backupsReadsAnS3StoreWithTheEtcdsStoreSecret(KubernetesClient client, @TempDir Path work)
      throws Exception {
    Properties properties = new Properties();
    properties.setProperty("jclouds.filesystem.basedir",
        Files.createDirectories(work.resolve("blobs")).toString());
    try (BlobStoreContext blobs = ContextBuilder.newBuilder("filesystem").overrides(properties)
        .build(BlobStoreContext.class)) {
      S3Proxy s3 = S3Proxy.builder().blobStore(blobs.getBlobStore())
          .endpoint(URI.create("http://127.0.0.1:0"))
          .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "cli-access", "cli-secret-key")
          .build();
      s3.start();
      try {
        await().atMost(WAIT).until(() -> "STARTED".equals(s3.getState()));
        blobs.getBlobStore().createContainerInLocation(null, "etcd-backups");
        URI endpoint = URI.create("http://127.0.0.1:" + s3.getPort());
        Path keys = Files.createDirectories(work.resolve("keys"));
        Files.writeString(keys.resolve("accessKeyID"), "cli-access");
        Files.writeString(keys.resolve("secretAccessKey"), "cli-secret-key");
        try (SnapshotStore store = SnapshotStores.open(new StoreConfig(StoreConfig.Provider.S3,
            "etcd-backups", kubectl.namespace() + "/s3-a", Optional.of(endpoint),
            Optional.of(keys)))) {
          store.put(Snapshot.full(0, 30, Instant.ofEpochSecond(1764547200),
              Snapshot.Compression.GZIP, false), out -> out.write(new byte[3000]));
        }
        client.resource(new SecretBuilder().withNewMetadata().withName("s3-a-store")
            .endMetadata().addToStringData("accessKeyID", "cli-access")
            .addToStringData("secretAccessKey", "cli-secret-key")
            .addToStringData("region", "eu-west-1").build()).create();
        Etcd etcd = CtlCommandsIT.create(client, "s3-a", null);
        etcd.getSpec().getBackup().getStore().setProvider(StorageProvider.S3);
        etcd.getSpec().getBackup().getStore().setContainer("etcd-backups");
        etcd.getSpec().getBackup().getStore().setEndpointOverride(endpoint.toString());
        etcd.getSpec().getBackup().getStore().setSecretRef(
            new io.fabric8.kubernetes.api.model.SecretReference("s3-a-store", null));
        client.resource(etcd).update();

        Kubectl.Run listed = kubectl.run("backups", "s3-a");
        assertThat(listed.code()).as(listed.err()).isZero();
        assertThat(listed.out()).contains("Full", "2.9 KiB", "s3://etcd-backups/",
            "1 full and 0 delta snapshots", "newest revision 30");
      } finally {
        s3.stop();
      }
    }
  }
}
