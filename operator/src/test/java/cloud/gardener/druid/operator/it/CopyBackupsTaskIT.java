package cloud.gardener.druid.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTaskSpec;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.api.v1alpha1.WaitForFinalSnapshotSpec;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * EtcdCopyBackupsTasks on the real control plane: the operator's Job runs {@code druid agent
 * copy} in a pod of the node simulator, which copies the newest backups between two Local
 * stores once the source's final full snapshot is there; the task reports the Job's outcome
 * and takes the Job with it when deleted.
 */
@WithOperator
class CopyBackupsTaskIT {

  static final Duration TASK = Duration.ofMinutes(3);

  /** Runs before the operator stops. */
  @AfterAll
  static void deleteTasks(KubernetesClient client) {
    client.resources(EtcdCopyBackupsTask.class).delete();
  }

  @Test
  void theNewestBackupsAreCopiedOnceTheFinalSnapshotIsThere(KubernetesClient client,
      TestNamespace ns, OperatorHarness operator) throws Exception {
    String prefix = ns.name() + "/etcd-main";
    LocalSnapshotStore source = new LocalSnapshotStore(
        operator.localStore("source"), prefix);
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    put(source, Snapshot.full(0, 100, now.minus(Duration.ofHours(3)), Compression.NONE, false));
    put(source, Snapshot.delta(101, 150, now.minus(Duration.ofMinutes(170)), Compression.NONE));
    put(source, Snapshot.full(0, 200, now.minus(Duration.ofHours(2)), Compression.GZIP, false));
    put(source, Snapshot.delta(201, 250, now.minus(Duration.ofMinutes(110)), Compression.GZIP));

    EtcdCopyBackupsTask task = task("copy-newest", store(StorageProvider.LOCAL, "source", prefix),
        store(StorageProvider.LOCAL, "target", prefix + "-copy"));
    task.getSpec().setMaxBackups(2);
    WaitForFinalSnapshotSpec wait = new WaitForFinalSnapshotSpec();
    wait.setEnabled(true);
    wait.setTimeout(GoDuration.parse("5m"));
    task.getSpec().setWaitForFinalSnapshot(wait);
    client.resource(task).create();

    Job job = await().atMost(TASK).until(() -> client.batch().v1().jobs()
        .withName("copy-newest-worker").get(), j -> j != null);
    assertThat(job.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getName()).isEqualTo("copy-newest"));
    await().atMost(TASK).until(() -> client.pods().withLabel("job-name", "copy-newest-worker")
        .list().getItems().stream().anyMatch(p -> p.getStatus() != null
            && "Running".equals(p.getStatus().getPhase())));
    assertThat(succeeded(client, "copy-newest"))
        .as("the copy waits for the final full snapshot").isNull();
    await().atMost(TASK).untilAsserted(() -> assertThat(progressing(client, "copy-newest"))
        .as("how far the running copy is, in its status")
        .startsWith("True Copying waiting for the final full snapshot in "));

    Instant finalWritten = Instant.now();
    Snapshot last = Snapshot.full(0, 260, now, Compression.GZIP, true);
    put(source, last);

    EtcdCopyBackupsTask done = await().atMost(TASK).until(
        () -> client.resources(EtcdCopyBackupsTask.class).withName("copy-newest").get(),
        t -> succeeded(client, t.getMetadata().getName()) != null);
    assertThat(done.getStatus().getObservedGeneration()).isEqualTo(1L);
    assertThat(done.getStatus().getLastError()).isNull();
    // the termination message on a real kubelet; the node simulator writes none
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(progressing(client, "copy-newest")).as("the copy's last word").isIn(
            "False Finished copied 3 snapshot(s) (" + copiedBytes(source)
                + " bytes), skipped 0 already in the target",
            "False Finished the copy ended; its pod left no termination message"));
    assertThat(Instant.parse(succeeded(client, "copy-newest")))
        .isAfterOrEqualTo(finalWritten.truncatedTo(ChronoUnit.SECONDS));

    Map<String, String> copied = contents(operator.localStore("target")
        .resolve(prefix + "-copy").resolve("v2"));
    assertThat(copied.keySet()).as("the two newest backups, the final flag dropped")
        .containsExactly(
            Snapshot.full(0, 200, now.minus(Duration.ofHours(2)), Compression.GZIP, false)
                .fileName(),
            Snapshot.delta(201, 250, now.minus(Duration.ofMinutes(110)), Compression.GZIP)
                .fileName(),
            Snapshot.full(0, 260, now, Compression.GZIP, false).fileName());
    Map<String, String> originals = contents(source.directory());
    assertThat(copied.get(Snapshot.full(0, 260, now, Compression.GZIP, false).fileName()))
        .isEqualTo(originals.get(last.fileName()));
    copied.forEach((name, content) -> {
      if (originals.containsKey(name)) {
        assertThat(content).as(name).isEqualTo(originals.get(name));
      }
    });

    client.resources(EtcdCopyBackupsTask.class).withName("copy-newest").delete();
    await().atMost(TASK).until(() -> client.batch().v1().jobs().withName("copy-newest-worker")
        .get() == null && client.pods().withLabel("job-name", "copy-newest-worker").list()
        .getItems().isEmpty());
  }

  @Test
  void aStoreTheAgentCannotReachIsReportedByFieldAndNoJobRuns(KubernetesClient client) {
    EtcdCopyBackupsTask task = task("copy-swift",
        store(StorageProvider.OPENSTACK, "bucket", "p"),
        store(StorageProvider.LOCAL, "target", "p"));
    client.resource(task).create();
    EtcdCopyBackupsTask reported = await().atMost(TASK).until(
        () -> client.resources(EtcdCopyBackupsTask.class).withName("copy-swift").get(),
        t -> t.getStatus() != null && t.getStatus().getLastError() != null);
    assertThat(reported.getStatus().getLastError())
        .startsWith("spec.sourceStore.provider: openstack (OpenStack Swift) has no backup");
    assertThat(client.batch().v1().jobs().withName("copy-swift-worker").get()).isNull();
  }

  /** The Succeeded=True condition's transition time, or null. */
  static String succeeded(KubernetesClient client, String name) {
    EtcdCopyBackupsTask task = client.resources(EtcdCopyBackupsTask.class).withName(name).get();
    if (task == null || task.getStatus() == null || task.getStatus().getConditions() == null) {
      return null;
    }
    return task.getStatus().getConditions().stream()
        .filter(c -> "Succeeded".equals(c.getType()) && "True".equals(c.getStatus()))
        .map(c -> c.getLastTransitionTime()).findFirst().orElse(null);
  }

  /** The Progressing condition: "status reason message", or null. */
  static String progressing(KubernetesClient client, String name) {
    EtcdCopyBackupsTask task = client.resources(EtcdCopyBackupsTask.class).withName(name).get();
    if (task == null || task.getStatus() == null || task.getStatus().getConditions() == null) {
      return null;
    }
    return task.getStatus().getConditions().stream()
        .filter(c -> "Progressing".equals(c.getType()))
        .map(c -> c.getStatus() + " " + c.getReason() + " " + c.getMessage())
        .findFirst().orElse(null);
  }

  /** The bytes of the three snapshots the test's copy takes. */
  static long copiedBytes(LocalSnapshotStore source) throws IOException {
    long bytes = 0;
    for (Snapshot s : source.list()) {
      if (s.endRevision() >= 200) {
        bytes += Files.size(source.directory().resolve(s.fileName()));
      }
    }
    return bytes;
  }

  static void put(LocalSnapshotStore store, Snapshot snapshot) throws IOException {
    byte[] content = ("content of " + snapshot.fileName()).repeat(1000)
        .getBytes(StandardCharsets.UTF_8);
    store.put(snapshot, out -> out.write(content));
  }

  static Map<String, String> contents(Path dir) throws IOException {
    Map<String, String> files = new TreeMap<>((a, b) -> Snapshot.ORDER.compare(
        Snapshot.parse(a).orElseThrow(), Snapshot.parse(b).orElseThrow()));
    try (Stream<Path> list = Files.list(dir)) {
      for (Path p : list.filter(p -> Snapshot.parse(p.getFileName().toString()).isPresent())
          .toList()) {
        files.put(p.getFileName().toString(), Files.readString(p, StandardCharsets.UTF_8));
      }
    }
    return files;
  }

  static EtcdCopyBackupsTask task(String name, StoreSpec source, StoreSpec target) {
    EtcdCopyBackupsTask task = new EtcdCopyBackupsTask();
    task.setMetadata(new ObjectMetaBuilder().withName(name).build());
    EtcdCopyBackupsTaskSpec spec = new EtcdCopyBackupsTaskSpec();
    spec.setSourceStore(source);
    spec.setTargetStore(target);
    task.setSpec(spec);
    return task;
  }

  static StoreSpec store(StorageProvider provider, String container, String prefix) {
    StoreSpec store = new StoreSpec();
    store.setProvider(provider);
    store.setContainer(container);
    store.setPrefix(prefix);
    return store;
  }
}
