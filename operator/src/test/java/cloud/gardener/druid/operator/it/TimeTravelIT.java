package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.RestoreIntoConfig;
import cloud.gardener.druid.api.v1alpha1.UndeleteConfig;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Time travel through EtcdOpsTasks on the real kube-apiserver: a running Etcd written in three
 * batches (revisions R1 &lt; R2 &lt; R3), then /app/ deleted, one key re-created and more
 * written. An undelete at R3 (after a dry run that changes nothing) brings back exactly the
 * prefix's keys without overwriting the re-created one, changes no other key and fails no
 * write of a client writing elsewhere meanwhile; a restoreInto at R2 creates a new Etcd that
 * holds exactly what the source held at R2, at a revision above the source's.
 */
@WithOperator
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TimeTravelIT {

  static OperatorHarness harness;
  static Etcd source;
  static long r2;
  static long r3;
  static SortedMap<String, String> atR2;
  static SortedMap<String, String> atR3;

  @BeforeAll
  static void writeHistory(TestNamespace ns, KubernetesClient client, OperatorHarness operator)
      throws Exception {
    harness = operator;
    source = load("etcd-1-local.yaml", ns.name());
    source.getMetadata().setName("travel");
    source.getSpec().getBackup().getStore().setPrefix(ns.name() + "/travel");
    source.getSpec().getBackup().setDeltaSnapshotPeriod(GoDuration.parse("1s"));
    client.resource(source).create();
    awaitRolloutComplete(client, "travel");
    try (Client etcd = EtcdClients.connect(EtcdClients.endpoints(client, source))) {
      KV kv = etcd.getKVClient();
      batch(kv, 0, 50, "v1-");
      r2 = batch(kv, 40, 40, "v2-");
      atR2 = dump(kv, r2);
      r3 = batch(kv, 70, 30, "v3-");
      atR3 = dump(kv, r3);
      kv.delete(bytes("/app/"), DeleteOption.builder().isPrefix(true).build())
          .get(10, TimeUnit.SECONDS);
      kv.put(bytes("/app/k-5"), bytes("re-created")).get(10, TimeUnit.SECONDS);
      long last = batch(kv, "/other/", 0, 20, "o-");
      awaitDeltasUpTo(last);
    }
  }

  @AfterAll
  static void deleteTasks(KubernetesClient client) {
    client.resources(EtcdOpsTask.class).delete();
  }

  @Test
  @Order(1)
  void anUndeleteAtR3BringsBackThePrefixAndReportsTheReCreatedKey(KubernetesClient client)
      throws Exception {
    try (Client etcd = EtcdClients.connect(EtcdClients.endpoints(client, source))) {
      KV kv = etcd.getKVClient();
      SortedMap<String, String> before = dump(kv, 0);
      createTask(client, "undelete-dry", "travel", c -> c.setUndelete(undelete(true)), null);
      EtcdOpsTask dry = awaitTaskState(client, "undelete-dry", "Succeeded");
      assertThat(dry.getStatus().getLastOperation().getDescription())
          .startsWith("dry run: would write 99 keys under /app/ as they were at revision " + r3)
          .contains("skipped: /app/k-5: changed since it was deleted");
      assertThat(dump(kv, 0)).isEqualTo(before);

      AtomicBoolean writing = new AtomicBoolean(true);
      AtomicLong failed = new AtomicLong();
      AtomicLong written = new AtomicLong();
      Thread writer = new Thread(() -> {
        for (int i = 0; writing.get(); i++) {
          try {
            kv.put(bytes("/writer/" + (i % 20)), bytes("w-" + i)).get(5, TimeUnit.SECONDS);
            written.incrementAndGet();
          } catch (Exception e) {
            failed.incrementAndGet();
          }
        }
      });
      writer.start();
      EtcdOpsTask task;
      try {
        createTask(client, "undelete", "travel", c -> c.setUndelete(undelete(false)), null);
        task = awaitTaskState(client, "undelete", "Succeeded");
      } finally {
        writing.set(false);
        writer.join();
      }
      assertThat(task.getStatus().getLastOperation().getDescription())
          .startsWith("wrote 99 keys under /app/ as they were at revision " + r3 + "; 1 skipped");
      SortedMap<String, String> after = dump(kv, 0);
      SortedMap<String, String> expected = new TreeMap<>(atR3.subMap("/app/", "/app0"));
      expected.put("/app/k-5", "re-created");
      assertThat(after.subMap("/app/", "/app0")).isEqualTo(expected);
      assertThat(without(after)).as("no other key changed").isEqualTo(without(before));
      assertThat(written.get()).isPositive();
      assertThat(failed.get()).as("failed writes of the client writing elsewhere").isZero();
    }
  }

  @Test
  @Order(2)
  void aRestoreIntoANewEtcdAtR2HoldsExactlyWhatTheSourceHeldAtR2(KubernetesClient client)
      throws Exception {
    RestoreIntoConfig c = new RestoreIntoConfig();
    c.setEtcdName("travel-r2");
    c.setRevision(r2);
    createTask(client, "restore", "travel", config -> config.setRestoreInto(c), null);
    EtcdOpsTask task = awaitTaskState(client, "restore", "Succeeded");

    assertThat(task.getStatus().getLastOperation().getDescription())
        .startsWith("restored revision " + r2 + " of Etcd travel into the new Etcd travel-r2");
    Etcd restored = awaitRolloutComplete(client, "travel-r2");
    assertThat(restored.getMetadata().getAnnotations())
        .containsEntry(Annotations.RESTORED_FROM, source.getMetadata().getNamespace()
            + "/travel@" + r2);
    assertThat(restored.getSpec().getBackup().getStore().getPrefix())
        .isEqualTo(source.getMetadata().getNamespace() + "/travel-r2");
    long sourceRevision;
    try (Client etcd = EtcdClients.connect(EtcdClients.endpoints(client, source))) {
      sourceRevision = etcd.getKVClient().get(bytes("/")).get(10, TimeUnit.SECONDS)
          .getHeader().getRevision();
    }
    try (Client etcd = EtcdClients.connect(EtcdClients.endpoints(client, restored))) {
      KV kv = etcd.getKVClient();
      assertThat(dump(kv, 0)).isEqualTo(atR2);
      assertThat(kv.get(bytes("/")).get(10, TimeUnit.SECONDS).getHeader().getRevision())
          .isGreaterThan(sourceRevision);
    }
  }

  private static UndeleteConfig undelete(boolean dryRun) {
    UndeleteConfig c = new UndeleteConfig();
    c.setPrefix("/app/");
    c.setRevision(r3);
    c.setDryRun(dryRun);
    return c;
  }

  private static SortedMap<String, String> without(SortedMap<String, String> keys) {
    SortedMap<String, String> rest = new TreeMap<>(keys);
    rest.keySet().removeIf(k -> k.startsWith("/app/") || k.startsWith("/writer/"));
    return rest;
  }

  private static long batch(KV kv, int from, int count, String value) throws Exception {
    return batch(kv, "/app/k-", from, count, value);
  }

  private static long batch(KV kv, String prefix, int from, int count, String value)
      throws Exception {
    long revision = 0;
    for (int i = from; i < from + count; i++) {
      revision = kv.put(bytes(prefix + i), bytes(value + i)).get(10, TimeUnit.SECONDS)
          .getHeader().getRevision();
    }
    return revision;
  }

  /** What {@code etcdctl get "" --prefix --rev=revision} returns (0: the newest). */
  private static SortedMap<String, String> dump(KV kv, long revision) throws Exception {
    ByteSequence all = ByteSequence.from(new byte[] {0});
    GetOption.Builder option = GetOption.builder().withRange(all);
    if (revision > 0) {
      option.withRevision(revision);
    }
    SortedMap<String, String> content = new TreeMap<>();
    kv.get(all, option.build()).get(30, TimeUnit.SECONDS).getKvs().forEach(k -> content.put(
        k.getKey().toString(StandardCharsets.UTF_8), k.getValue().toString(StandardCharsets.UTF_8)));
    return content;
  }

  private static void awaitDeltasUpTo(long revision) {
    Path store = harness.snapshots(source);
    await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(() -> {
      try (Stream<Path> files = Files.list(store)) {
        return files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("Incr-"))
            .mapToLong(f -> Long.parseLong(f.split("-")[2])).max().orElse(0) >= revision;
      }
    });
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }
}
