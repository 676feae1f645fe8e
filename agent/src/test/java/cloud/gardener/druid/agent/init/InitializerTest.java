package cloud.gardener.druid.agent.init;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.init.DataDirValidator.Mode;
import cloud.gardener.druid.agent.metrics.BackupRestoreMetrics;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member without data that finds no cluster to join (bootstrapping with an empty store is
 * what every multi-member IT does).
 */
class InitializerTest {

  @TempDir
  Path work;

  @Test
  void refusesToBootstrapAnEmptyClusterWhileTheStoreHoldsItsBackups() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "ns/main");
    store.put(Snapshot.full(0, 42, Instant.parse("2026-01-01T00:00:00Z"),
        Snapshot.Compression.NONE, false), out -> out.write(new byte[] {1, 2, 3}));
    Initializer init = initializer(Optional.of(store));

    assertThatThrownBy(() -> init.initialize(Mode.SANITY))
        .hasMessageContaining("refusing to bootstrap an empty cluster")
        .hasMessageContaining("recoverFromQuorumLoss");
    assertThat(Files.exists(work.resolve("data/new.etcd/member"))).isFalse();
  }

  private Initializer initializer(Optional<LocalSnapshotStore> store) throws Exception {
    String host = "127.0.0.1";
    int clientPort = LoopbackPorts.on(host);
    int peerPort = LoopbackPorts.on(host);
    Map<String, URI> cluster = new LinkedHashMap<>();
    for (int i = 0; i < 3; i++) {
      cluster.put("main-" + i, URI.create("http://127.0.0." + (31 + i) + ":" + peerPort));
    }
    MemberConfig member = new MemberConfig("main-0", "main", "ns", "127.0.0.31", "127.0.0.31",
        clientPort, peerPort, cluster, "main-token", work.resolve("data/new.etcd"),
        Optional.empty(), Optional.empty());
    GuardFile guard = new GuardFile("ns", "main");
    return new Initializer(member, new DataDirValidator(work.resolve("no-etcdutl"), guard), guard,
        store.map(s -> s), Optional.empty(), new BackupRestoreMetrics());
  }
}
