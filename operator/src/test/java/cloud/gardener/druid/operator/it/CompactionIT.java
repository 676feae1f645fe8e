package cloud.gardener.druid.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.restore.TemporaryEtcd;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.SnapshotCompactionSpec;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.compaction.CompactionMetrics;
import cloud.gardener.druid.operator.model.CompactionSettings;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.testing.LocalStores;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.options.GetOption;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot compaction on the real control plane: an Etcd writes more delta events than its
 * {@code snapshotCompaction.eventsThreshold}, the operator (started with compaction enabled)
 * runs {@code druid agent compact} as a Job in a pod of the node simulator, which uploads a
 * full snapshot named after the last delta's revision and updates the snapshot leases; that
 * snapshot alone restores every key, the Job is deleted and the metrics count it.
 */
@LocalKubernetes
class CompactionIT {

  static final Duration ROLLOUT = Duration.ofMinutes(3);
  static final Duration COMPACTION = Duration.ofMinutes(5);
  static final int KEYS = 600;

  @TempDir
  Path work;

  @Test
  void deltaEventsPastTheThresholdAreCompactedIntoAFullSnapshotHoldingEveryKey(
      LocalCluster cluster, TestNamespace ns) throws Exception {
    KubernetesClient client = cluster.newClient(null);
    CrdInstaller.install(client, "etcd-druid-tests");
    Path stores = Files.createDirectories(cluster.workDir().resolve("stores").resolve(ns.name()));
    OperatorSettings settings = new OperatorSettings(OperatorSettings.DEFAULT_IMAGE,
        stores.toString(), CompactionSettings.enabled(1_000_000, Duration.ofMinutes(10)));
    EtcdOperator operator = new EtcdOperator(client, new EtcdOperator.Options(Set.of(ns.name()),
        true, false, null, settings));
    try (client; operator) {
      operator.start();
      Etcd etcd = ItSupport.load("etcd-1-local.yaml", ns.name());
      etcd.getMetadata().setName("compacted");
      etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/compacted");
      etcd.getSpec().getBackup().setDeltaSnapshotPeriod(GoDuration.parse("2s"));
      etcd.getSpec().getBackup().setFullSnapshotSchedule(CronSchedule.parse("0 0 1 1 *")); // none but the first
      SnapshotCompactionSpec compaction = new SnapshotCompactionSpec();
      compaction.setEventsThreshold(1_000_000L); // lowered once every key is written
      ResourceRequirements resources = new ResourceRequirements();
      resources.setRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("256Mi")));
      compaction.setResources(resources);
      etcd.getSpec().getBackup().setSnapshotCompaction(compaction);
      client.resource(etcd).create();
      await().atMost(ROLLOUT).ignoreExceptions().until(() -> RolloutCompletion.isComplete(
          client.resources(Etcd.class).inNamespace(ns.name()).withName("compacted").get()));
      await().atMost(ROLLOUT).until(
          () -> holder(client, ns, "compacted-full-snap"), h -> h > 0);

      Map<String, String> written = new TreeMap<>();
      long lastWrite;
      try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client,
          client.resources(Etcd.class).inNamespace(ns.name()).withName("compacted").get()))) {
        KV kv = etcdClient.getKVClient();
        for (int i = 0; i < KEYS; i++) {
          String key = String.format("/compaction/%04d", i);
          EtcdClients.put(kv, key, "value-" + i);
          written.put(key, "value-" + i);
        }
        EtcdClients.put(kv, "/compaction/0001", "overwritten");
        written.put("/compaction/0001", "overwritten");
        lastWrite = kv.delete(EtcdClients.bytes("/compaction/0002")).get(10, TimeUnit.SECONDS)
            .getHeader().getRevision();
        written.remove("/compaction/0002");
      }
      // the deltas must cover every write before the threshold drops: a compaction started
      // earlier compacts up to an older delta, and the few events after it stay below
      await().atMost(ROLLOUT).until(
          () -> holder(client, ns, "compacted-delta-snap"), h -> h >= lastWrite);
      assertThat(client.batch().v1().jobs().inNamespace(ns.name())
          .withName("compacted-compactor").get()).as("below the threshold").isNull();
      EtcdEdits.edit(client, ns.name(), "compacted", e -> e.getSpec().getBackup()
          .getSnapshotCompaction().setEventsThreshold((long) KEYS / 2));

      LocalSnapshotStore store = new LocalSnapshotStore(
          LocalStores.dir(settings, client.resources(Etcd.class).inNamespace(ns.name())
              .withName("compacted").get()), ns.name() + "/compacted");
      Snapshot compacted = await().atMost(COMPACTION).ignoreExceptions().until(
          () -> store.list().stream().filter(s -> s.isFull() && s.endRevision() >= lastWrite)
              .max(Comparator.comparingLong(Snapshot::endRevision)), Optional::isPresent).get();
      assertThat(store.list()).as("the compacted snapshot is named after a delta's revision")
          .anySatisfy(s -> {
            assertThat(s.isFull()).isFalse();
            assertThat(s.endRevision()).isEqualTo(compacted.endRevision());
          });
      await().atMost(COMPACTION).untilAsserted(() -> {
        assertThat(holder(client, ns, "compacted-full-snap"))
            .isGreaterThanOrEqualTo(compacted.endRevision());
        assertThat(client.batch().v1().jobs().inNamespace(ns.name())
            .withName("compacted-compactor").get()).as("the finished job is deleted").isNull();
        assertThat(operator.metrics().scrape()).contains(CompactionMetrics.JOBS_TOTAL
            + "{etcd_namespace=\"" + ns.name() + "\",failureReason=\"none\",succeeded=\"true\"} 1.0");
        assertThat(compactionCondition(client, ns)).isPresent();
      });
      assertThat(operator.metrics().scrape()).contains(CompactionMetrics.JOB_DURATION
          + "_count{etcd_namespace=\"" + ns.name() + "\",failureReason=\"none\",succeeded=\"true\"} 1");

      Condition recorded = compactionCondition(client, ns).orElseThrow();
      assertThat(recorded.getStatus()).isEqualTo("True");
      assertThat(recorded.getReason()).isEqualTo("None");
      assertThat(recorded.getMessage()).startsWith("Compaction job " + ns.name()
          + "/compacted-compactor completed with state ");
      long generation = EtcdEdits.edit(client, ns.name(), "compacted", e -> e.getSpec()
          .getBackup().getSnapshotCompaction().setEventsThreshold(1_000_000L))
          .getMetadata().getGeneration();
      await().atMost(ROLLOUT).ignoreExceptions().until(() -> {
        Etcd now = client.resources(Etcd.class).inNamespace(ns.name()).withName("compacted").get();
        return now.getStatus().getObservedGeneration() == generation
            && RolloutCompletion.isComplete(now);
      });
      assertThat(compactionCondition(client, ns)).as("the Etcd reconciler's status write keeps it")
          .hasValueSatisfying(c -> {
            assertThat(c.getReason()).isEqualTo("None");
            assertThat(c.getLastTransitionTime()).isEqualTo(recorded.getLastTransitionTime());
          });

      assertThat(restoreOnly(compacted, store, work))
          .containsAllEntriesOf(written)
          .doesNotContainKey("/compaction/0002");
    }
  }

  /** The keys a member restored from {@code compacted} alone (no delta) holds. */
  private static Map<String, String> restoreOnly(Snapshot compacted, LocalSnapshotStore store,
      Path work) throws Exception {
    LocalSnapshotStore alone = new LocalSnapshotStore(work.resolve("store"), "alone");
    alone.put(compacted, out -> {
      try (var in = store.open(compacted)) {
        in.transferTo(out);
      }
    });
    Path bin = ControlPlaneBinaries.directory();
    MemberConfig member = new MemberConfig("restored", "compacted", "ns", "127.0.0.1",
        "127.0.0.1", 2379, 2380, Map.of("restored", URI.create("http://127.0.0.1:2380")),
        "restore-check", work.resolve("data"), Optional.empty(), Optional.empty());
    new Restorer(alone, EtcdTuning.defaults(bin), member).restore(dir -> { }).orElseThrow();
    try (TemporaryEtcd etcd = TemporaryEtcd.start(bin.resolve("etcd"), "restored",
        work.resolve("data"), work.resolve("etcd.log"), Optional.empty())) {
      Map<String, String> keys = new TreeMap<>();
      ByteSequence prefix = ByteSequence.from("/compaction/", StandardCharsets.UTF_8);
      etcd.client().client().getKVClient().get(prefix, GetOption.builder().isPrefix(true).build())
          .get(30, TimeUnit.SECONDS).getKvs().forEach(kv -> keys.put(
              kv.getKey().toString(StandardCharsets.UTF_8),
              kv.getValue().toString(StandardCharsets.UTF_8)));
      return keys;
    }
  }

  private static Optional<Condition> compactionCondition(KubernetesClient client,
      TestNamespace ns) {
    Etcd etcd = client.resources(Etcd.class).inNamespace(ns.name()).withName("compacted").get();
    return Condition.find(etcd.getStatus().getConditions(), "LastSnapshotCompactionSucceeded");
  }

  private static long holder(KubernetesClient client, TestNamespace ns, String lease) {
    Lease found = client.leases().inNamespace(ns.name()).withName(lease).get();
    if (found == null || found.getSpec() == null || found.getSpec().getHolderIdentity() == null) {
      return -1;
    }
    return Long.parseLong(found.getSpec().getHolderIdentity());
  }
}
