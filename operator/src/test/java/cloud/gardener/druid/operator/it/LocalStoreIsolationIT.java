package cloud.gardener.druid.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.testing.LocalStores;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Tenant isolation of {@code Local} stores on the real control plane: one operator (default
 * layout) watches namespaces A and B; an Etcd in B that names A's container and prefix gets
 * its own host directory, so it neither restores A's keys nor sees A's snapshots. In the old
 * shared directory B's member mounted A's files (its agent then refused to start on A's
 * identity marker, but the files were in its pod).
 */
@LocalKubernetes
class LocalStoreIsolationIT {

  static final Duration ROLLOUT = Duration.ofMinutes(3);
  static final Pattern SNAPSHOT = Pattern.compile("(Full|Incr)-(\\d+)-(\\d+)-.*");

  @Test
  void anEtcdInAnotherNamespaceWithTheSameContainerAndPrefixDoesNotSeeTheBackups(
      LocalCluster cluster, TestNamespace a) throws Exception {
    String b = a.name() + "-b";
    KubernetesClient client = cluster.newClient(null);
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(b)
        .endMetadata().build()).create();
    client.serviceAccounts().inNamespace(b).withName("default")
        .waitUntilCondition(sa -> sa != null, 60, TimeUnit.SECONDS);
    CrdInstaller.install(client, "etcd-druid-tests");
    Path root = Files.createDirectories(cluster.workDir().resolve("stores").resolve(a.name()));
    OperatorSettings settings = new OperatorSettings(OperatorSettings.DEFAULT_IMAGE,
        root.toString());
    EtcdOperator operator = new EtcdOperator(client, new EtcdOperator.Options(
        Set.of(a.name(), b), true, false, null, settings));
    try (client; operator) {
      operator.start();
      Etcd inA = tenant(a.name());
      client.resource(inA).create();
      awaitReady(client, inA);
      long written;
      try (Client etcd = EtcdClients.connect(EtcdClients.endpoints(client, inA))) {
        written = etcd.getKVClient().put(EtcdClients.bytes("/tenant-a/secret"),
            EtcdClients.bytes("only-for-a")).get(10, TimeUnit.SECONDS).getHeader().getRevision();
      }
      Path storeOfA = LocalStores.snapshots(settings, inA);
      await().atMost(ROLLOUT).ignoreExceptions().until(
          () -> snapshots(storeOfA).stream().anyMatch(m -> Long.parseLong(m.group(3)) >= written));
      List<String> backupsOfA = snapshots(storeOfA).stream().map(m -> m.group()).toList();

      Etcd inB = tenant(b);
      client.resource(inB).create();
      String hostDirOfB = await().atMost(ROLLOUT).ignoreExceptions()
          .until(() -> localStoreHostPath(client, inB), p -> p != null);
      assertThat(hostDirOfB).as("B's member mounts a host directory of its own")
          .isNotEqualTo(localStoreHostPath(client, inA));
      awaitReady(client, inB);
      try (Client etcd = EtcdClients.connect(EtcdClients.endpoints(client, inB))) {
        assertThat(EtcdClients.get(etcd.getKVClient(), "/tenant-a/secret"))
            .as("A's key restored in B").isNull();
        EtcdClients.put(etcd.getKVClient(), "/tenant-b/own", "b");
      }
      Path storeOfB = LocalStores.snapshots(settings, inB);
      assertThat(storeOfB).isNotEqualTo(storeOfA);
      await().atMost(ROLLOUT).ignoreExceptions().until(() -> !snapshots(storeOfB).isEmpty());
      assertThat(snapshots(storeOfB)).extracting(m -> m.group())
          .as("B's store holds none of A's snapshots").doesNotContainAnyElementsOf(backupsOfA);
      assertThat(snapshots(storeOfA)).extracting(m -> m.group())
          .as("A's store is untouched by B").containsAll(backupsOfA);
    } finally {
      try (KubernetesClient admin = cluster.newClient(null)) {
        admin.namespaces().withName(b).delete();
      }
    }
  }

  /** A one-member Etcd {@code tenant} in {@code namespace}, one container and prefix for all. */
  private static Etcd tenant(String namespace) throws Exception {
    Etcd etcd = ItSupport.load("etcd-1-local.yaml", namespace);
    etcd.getMetadata().setName("tenant");
    etcd.getSpec().getBackup().getStore().setContainer("backups");
    etcd.getSpec().getBackup().getStore().setPrefix("shared/tenant");
    etcd.getSpec().getBackup().setDeltaSnapshotPeriod(GoDuration.parse("2s"));
    return etcd;
  }

  /** The host directory the Etcd's first member pod mounts as its Local store. */
  private static String localStoreHostPath(KubernetesClient client, Etcd etcd) {
    return client.pods().inNamespace(etcd.getMetadata().getNamespace())
        .withName(etcd.getMetadata().getName() + "-0").get().getSpec().getVolumes().stream()
        .filter(v -> v.getName().equals("local-store")).findFirst().orElseThrow()
        .getHostPath().getPath();
  }

  private static void awaitReady(KubernetesClient client, Etcd etcd) {
    // in a directory shared with another namespace the agent refuses to start on the other
    // Etcd's backups (identity marker): isolation is what lets it start
    await().alias(etcd.getMetadata().getNamespace() + "/tenant ready").atMost(ROLLOUT)
        .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
        .until(() -> RolloutCompletion.isComplete(client.resources(Etcd.class)
            .inNamespace(etcd.getMetadata().getNamespace())
            .withName(etcd.getMetadata().getName()).get()));
  }

  private static List<Matcher> snapshots(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> SNAPSHOT.matcher(f.getFileName().toString()))
          .filter(Matcher::matches).toList();
    }
  }
}
