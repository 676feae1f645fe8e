package cloud.gardener.druid.agent.compact;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.AgentCommand;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.StoreIdentity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code druid agent compact} as the compaction Job runs it: options in, exit code out. */
class CompactCommandTest {

  @TempDir
  Path work;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int druidAgent(String... args) {
    CommandLine agent = new CommandLine(new AgentCommand());
    agent.setOut(new PrintWriter(out, true));
    agent.setErr(new PrintWriter(err, true));
    return agent.execute(args);
  }

  @Test
  void aStoreWithoutDeltasHasNothingToCompactAndIsLeftAlone() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("backups"), "ns/etcd-main");
    Snapshot full = Snapshot.full(0, 100, Instant.parse("2026-12-01T10:00:00Z"),
        Snapshot.Compression.NONE, false);
    store.put(full, o -> o.write(new byte[16]));

    int exit = druidAgent("compact", "--store-provider=Local",
        "--store-container=" + work.resolve("backups"), "--store-prefix=ns/etcd-main",
        "--etcd-name=etcd-main", "--namespace=ns", "--data-dir=" + work.resolve("scratch"));

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString()).contains("nothing to compact: no delta snapshot after "
        + full.fileName());
    assertThat(store.list()).containsExactly(full);
  }

  @Test
  void anotherEtcdsBackupsAreRefused() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("backups"), "ns/etcd-main");
    store.writeIdentity(new StoreIdentity("other", "etcd-main"));
    store.put(Snapshot.full(0, 100, Instant.parse("2026-12-01T10:00:00Z"),
        Snapshot.Compression.NONE, false), o -> o.write(new byte[16]));
    store.put(Snapshot.delta(101, 120, Instant.parse("2026-12-01T10:00:20Z"),
        Snapshot.Compression.NONE), o -> o.write(new byte[16]));

    int exit = druidAgent("compact", "--store-provider=Local",
        "--store-container=" + work.resolve("backups"), "--store-prefix=ns/etcd-main",
        "--etcd-name=etcd-main", "--namespace=ns", "--data-dir=" + work.resolve("scratch"));

    assertThat(exit).isEqualTo(CompactCommand.EXIT_FAILED);
    assertThat(err.toString()).startsWith("compaction failed: refusing to restore");
  }

  @Test
  void invalidOptionsNameTheOption() {
    int exit = druidAgent("compact", "--store-provider=Local", "--store-container=backups",
        "--store-prefix=../escape", "--etcd-name=etcd-main");
    assertThat(exit).isEqualTo(CompactCommand.EXIT_INVALID_OPTIONS);
    assertThat(err.toString()).contains("--store-prefix");

    err.getBuffer().setLength(0);
    exit = druidAgent("compact", "--store-provider=Local", "--store-container=backups",
        "--store-prefix=ns/etcd-main", "--etcd-name=etcd-main", "--etcd-snapshot-timeout=0s");
    assertThat(exit).isEqualTo(CompactCommand.EXIT_INVALID_OPTIONS);
    assertThat(err.toString()).contains("--etcd-snapshot-timeout");
  }
}
