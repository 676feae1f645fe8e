package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.etcd.EtcdProcess;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.snapshot.DeltaSnapshotter;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.model.LocalStore;
import cloud.gardener.druid.operator.model.LocalStoreLayout;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.options.DeleteOption;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl druid history}, {@code restore} and {@code undelete} as a person runs them,
 * processes of the built jar: the history of a Local store that a real etcd's full and delta
 * snapshots filled (written by the agent's snapshotters) finds the revision at which /app/ was
 * deleted; restore and undelete create the EtcdOpsTasks that say so (the operator's part is in
 * the operator's TimeTravelIT); bad input is refused before anything is created.
 */
@LocalKubernetes
class CtlTimeTravelIT {

  static DruidProcess druid;
  static Path root;
  static long deleted;

  @BeforeAll
  static void setUp(LocalCluster cluster, TestNamespace ns, KubernetesClient client,
      @TempDir Path dir) throws Exception {
    try (KubernetesClient admin = cluster.newClient(null)) {
      CrdInstaller.install(admin, "druid-cli-tests");
    }
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, Files.readString(cluster.kubeconfig())
        .replace("namespace: default", "namespace: " + ns.name()));
    druid = DruidProcess.install(dir, kubeconfig);
    root = dir.resolve("stores");
    Etcd etcd = CtlCommandsIT.create(client, "travel", null);
    var store = etcd.getSpec().getBackup().getStore();
    Path container = Path.of(LocalStore.hostPath(root.toString(), LocalStoreLayout.PER_NAMESPACE,
        ns.name(), store));
    deleted = backUpAndDelete(new LocalSnapshotStore(container, store.getPrefix()), dir);
  }

  /** A real etcd's history: /app/ written, then deleted; the delete's revision. */
  private static long backUpAndDelete(LocalSnapshotStore store, Path dir) throws Exception {
    URI client = URI.create("http://127.0.0.1:" + LoopbackPorts.on("127.0.0.1"));
    URI peer = URI.create("http://127.0.0.1:" + LoopbackPorts.on("127.0.0.1"));
    try (EtcdProcess etcd = EtcdProcess.start(ControlPlaneBinaries.etcd(), List.of(
        "--name=travel-0", "--data-dir=" + dir.resolve("etcd"),
        "--listen-client-urls=" + client, "--advertise-client-urls=" + client,
        "--listen-peer-urls=" + peer, "--initial-advertise-peer-urls=" + peer,
        "--initial-cluster=travel-0=" + peer),
        ProcessBuilder.Redirect.appendTo(dir.resolve("etcd.log").toFile()));
        MemberClient member = new MemberClient(client, Optional.empty())) {
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() ->
          member.revision() > 0);
      Snapshot full = new FullSnapshotter(member, store, SnapshotCompression.GZIP,
          Clock.systemUTC(), Duration.ofMinutes(1)).take(false);
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(member, store,
          SnapshotCompression.GZIP, Clock.systemUTC(), 10 << 20, full.endRevision() + 1,
          () -> { })) {
        KV kv = member.client().getKVClient();
        for (int i = 0; i < 10; i++) {
          kv.put(bytes("/app/k-" + i), bytes("v" + i)).get(10, TimeUnit.SECONDS);
        }
        long revision = kv.delete(bytes("/app/"), DeleteOption.builder().isPrefix(true)
            .build()).get(10, TimeUnit.SECONDS).getHeader().getRevision();
        kv.put(bytes("/other/x"), bytes("y")).get(10, TimeUnit.SECONDS);
        long last = member.revision();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
          deltas.flush();
          return deltas.lastStoredRevision() >= last;
        });
        return revision;
      }
    }
  }

  @Test
  void historyFindsTheRevisionAtWhichThePrefixWasDeleted() {
    DruidProcess.Result r = druid.kubectlDruid("history", "travel", "--prefix", "/app/",
        "--local-store-root", root.toString());

    assertThat(r.code()).as(r.terminal()).isZero();
    assertThat(r.out()).contains("retained history of etcd", "oldest: revision",
        "deletes under /app/:", "to bring back the keys of the last delete: kubectl druid "
            + "undelete travel --prefix /app/ --at " + (deleted - 1));
    assertThat(r.out().lines().filter(l -> l.trim().startsWith(deleted + " ")))
        .singleElement().asString().contains(" 10 ", "/app/k-0");
  }

  @Test
  void undeleteAndRestoreCreateTheTasksThatSaySo(KubernetesClient client) {
    DruidProcess.Result undelete = druid.kubectlDruid("undelete", "travel", "--prefix",
        "/app/", "--at", Long.toString(deleted - 1), "--dry-run", "--no-wait");
    assertThat(undelete.code()).as(undelete.terminal()).isZero();
    assertThat(undelete.out()).contains("lists which it would write back",
        "created etcdopstask");

    DruidProcess.Result restore = druid.kubectlDruid("restore", "travel", "--to-time",
        "2026-12-04T23:15:00Z", "--into", "travel-back", "--no-wait");
    assertThat(restore.code()).as(restore.terminal()).isZero();

    List<EtcdOpsTask> tasks = client.resources(EtcdOpsTask.class).list().getItems();
    assertThat(tasks).filteredOn(t -> t.getSpec().getConfig().getUndelete() != null)
        .singleElement().satisfies(t -> {
      assertThat(t.getSpec().getConfig().getUndelete().getPrefix()).isEqualTo("/app/");
      assertThat(t.getSpec().getConfig().getUndelete().getRevision()).isEqualTo(deleted - 1);
      assertThat(t.getSpec().getConfig().getUndelete().getDryRun()).isTrue();
    });
    assertThat(tasks).filteredOn(t -> t.getSpec().getConfig().getRestoreInto() != null)
        .singleElement().satisfies(t -> {
      assertThat(t.getSpec().getConfig().getRestoreInto().getEtcdName())
          .isEqualTo("travel-back");
      assertThat(t.getSpec().getConfig().getRestoreInto().getTime())
          .isEqualTo("2026-12-04T23:15:00Z");
    });
  }

  @Test
  void badInputIsRefusedBeforeAnythingIsCreated(KubernetesClient client) {
    int before = client.resources(EtcdOpsTask.class).list().getItems().size();
    DruidProcess.Result both = druid.kubectlDruid("restore", "travel", "--to-revision", "5",
        "--to-time", "2026-12-04T23:15:00Z", "--into", "x");
    assertThat(both.code()).isEqualTo(2);
    assertThat(both.err()).contains("mutually exclusive");
    DruidProcess.Result badTime = druid.kubectlDruid("undelete", "travel", "--prefix", "/a/",
        "--at-time", "yesterday");
    assertThat(badTime.code()).isEqualTo(2);
    assertThat(badTime.err()).contains("'yesterday' is no RFC 3339 time");
    DruidProcess.Result badName = druid.kubectlDruid("restore", "travel", "--to-revision", "5",
        "--into", "Not_A_Name", "--no-wait");
    assertThat(badName.code()).as(badName.terminal()).isNotZero();
    assertThat(badName.terminal()).contains("spec.config.restoreInto.etcdName");
    assertThat(client.resources(EtcdOpsTask.class).list().getItems()).hasSize(before);
  }

  @Test
  void theApiServerRefusesARevisionAndATimeTogetherNamingTheField(KubernetesClient client) {
    EtcdOpsTask task = new EtcdOpsTask();
    task.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
        .withName("both").build());
    var spec = new cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskSpec();
    spec.setEtcdName("travel");
    var config = new cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig();
    var undelete = new cloud.gardener.druid.api.v1alpha1.UndeleteConfig();
    undelete.setPrefix("/app/");
    undelete.setRevision(5L);
    undelete.setTime("2026-12-04T23:15:00Z");
    config.setUndelete(undelete);
    spec.setConfig(config);
    task.setSpec(spec);

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> client.resource(task).create())
        .hasMessageContaining("spec.config.undelete")
        .hasMessageContaining("set exactly one of revision and time");
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }
}
