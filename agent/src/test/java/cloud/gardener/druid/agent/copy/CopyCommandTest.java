package cloud.gardener.druid.agent.copy;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.AgentCommand;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.agent.store.StoreIdentity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code druid agent copy} as a Job runs it: options in, exit code and summary line out. */
class CopyCommandTest {

  private static final Snapshot FULL = Snapshot.full(0, 100,
      Instant.parse("2026-11-25T10:00:00Z"), Compression.GZIP, false);
  private static final Snapshot DELTA = Snapshot.delta(101, 150,
      Instant.parse("2026-11-25T10:00:20Z"), Compression.GZIP);

  @TempDir
  Path work;
  private LocalSnapshotStore source;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @BeforeEach
  void setUp() throws Exception {
    source = new LocalSnapshotStore(work.resolve("old"), "shoot--dev--etcd-main");
    source.put(FULL, o -> o.write(new byte[1000]));
    source.put(DELTA, o -> o.write(new byte[24]));
  }

  private int druidAgent(String... args) {
    CommandLine agent = new CommandLine(new AgentCommand());
    agent.setOut(new PrintWriter(out, true));
    agent.setErr(new PrintWriter(err, true));
    return agent.execute(args);
  }

  private List<String> copyArgs(String... more) {
    List<String> args = new ArrayList<>(List.of("copy",
        "--store-provider=Local", "--store-container=" + work.resolve("new"),
        "--store-prefix=shoot--dev--etcd-main",
        "--source-store-provider=Local", "--source-store-container=" + work.resolve("old"),
        "--source-store-prefix=shoot--dev--etcd-main"));
    args.addAll(List.of(more));
    return args;
  }

  @Test
  void copiesAndEndsWithOneSummaryLine() throws Exception {
    int exit = druidAgent(copyArgs("--max-backup-age=-1", "--max-backups-to-copy=-1",
        "--max-parallel-copy-operations=2").toArray(String[]::new));

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString())
        .isEqualTo("copied 2 snapshot(s) (1024 bytes), skipped 0 already in the target"
            + System.lineSeparator());
    Path copied = work.resolve("new/shoot--dev--etcd-main/v2");
    assertThat(Files.size(copied.resolve(FULL.fileName()))).isEqualTo(1000);
    assertThat(Files.size(copied.resolve(DELTA.fileName()))).isEqualTo(24);

    out.getBuffer().setLength(0);
    assertThat(druidAgent(copyArgs().toArray(String[]::new))).isZero();
    assertThat(out.toString()).startsWith("copied 0 snapshot(s) (0 bytes), skipped 2 ");
  }

  @Test
  void aTimedOutWaitForTheFinalSnapshotStillCopies() {
    long started = System.nanoTime();
    int exit = druidAgent(copyArgs("--wait-for-final-snapshot", "true",
        "--wait-for-final-snapshot-timeout=300ms", "--final-snapshot-check-interval=100ms")
        .toArray(String[]::new));

    assertThat(exit).as(err.toString()).isZero();
    assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(300_000_000L);
    assertThat(out.toString()).startsWith("copied 2 snapshot(s)");
  }

  @Test
  void anEmptySourceSucceedsWithNothingCopied() {
    int exit = druidAgent("copy", "--store-provider=Local",
        "--store-container=" + work.resolve("new"), "--store-prefix=p",
        "--source-store-provider=Local", "--source-store-container=" + work.resolve("none"),
        "--source-store-prefix=p");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString()).startsWith("copied 0 snapshot(s) (0 bytes), skipped 0 ");
  }

  @Test
  void theStoresAreRequiredAndBadValuesAreRefused() {
    assertThat(druidAgent("copy", "--store-provider=Local", "--store-container=/x",
        "--store-prefix=p")).isNotZero();
    assertThat(err.toString()).contains("--source-store-provider", "--source-store-container",
        "--source-store-prefix");

    List<String> foreignPrefix = copyArgs();
    foreignPrefix.replaceAll(a -> a.startsWith("--source-store-prefix=")
        ? "--source-store-prefix=../other-namespace--etcd" : a);
    assertThat(druidAgent(foreignPrefix.toArray(String[]::new)))
        .isEqualTo(CopyCommand.EXIT_INVALID_OPTIONS);
    assertThat(err.toString()).contains("invalid options: --source-store-prefix "
        + "'../other-namespace--etcd' must be a relative path");
    assertThat(druidAgent(copyArgs("--final-snapshot-check-interval=soon")
        .toArray(String[]::new))).isEqualTo(CopyCommand.EXIT_INVALID_OPTIONS);
    assertThat(err.toString()).contains("invalid options: 'soon' is not a duration");
    assertThat(druidAgent(copyArgs("--max-parallel-copy-operations=0")
        .toArray(String[]::new))).isEqualTo(CopyCommand.EXIT_INVALID_OPTIONS);
    assertThat(druidAgent(copyArgs("--wait-for-final-snapshot").toArray(String[]::new)))
        .as("--wait-for-final-snapshot takes true or false").isNotZero();
    assertThat(work.resolve("new")).doesNotExist();
  }

  @Test
  void anotherNamespacesBackupsAreCopiedOnlyWhenTheTaskNamesTheirEtcd() throws Exception {
    source.writeIdentity(new StoreIdentity("team-b", "etcd-main"));
    List<String> args = copyArgs("--namespace=team-a");
    assertThat(druidAgent(args.toArray(String[]::new))).isEqualTo(CopyCommand.EXIT_FAILED);
    assertThat(err.toString()).contains("belong to Etcd team-b/etcd-main");
    assertThat(work.resolve("new")).doesNotExist();

    args.add("--source-etcd=team-b/etcd-main");
    assertThat(druidAgent(args.toArray(String[]::new))).as(err.toString()).isZero();
    assertThat(out.toString()).contains("copied 2 snapshot(s)");
  }

  @Test
  void helpListsTheOptions() {
    assertThat(druidAgent("copy", "--help")).isZero();
    assertThat(out.toString()).contains("--store-provider", "--store-container",
        "--store-prefix", "--store-endpoint-override", "--store-secret-dir",
        "--source-store-provider", "--source-store-container", "--source-store-prefix",
        "--source-store-endpoint-override", "--source-store-secret-dir", "--max-backup-age",
        "--max-backups-to-copy", "--wait-for-final-snapshot",
        "--wait-for-final-snapshot-timeout", "--final-snapshot-check-interval",
        "--max-parallel-copy-operations", "--namespace", "--source-etcd");
  }
}
