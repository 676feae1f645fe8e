package cloud.gardener.druid.agent.copy;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.AgentCommand;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.testing.S3ProxyServer;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code druid agent copy} from a Local store to an S3 store (s3proxy on 127.0.0.1) and back,
 * with the arguments a copy Job passes.
 */
class BackupCopyIT {

  private static final String BUCKET = "backups";
  private static final String PREFIX = "shoot--dev--etcd-main";
  private static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");

  @TempDir
  static Path shared;
  private static S3ProxyServer s3;
  private static LocalSnapshotStore source;
  private static final Map<Snapshot, byte[]> CONTENTS = new LinkedHashMap<>();

  @TempDir
  Path work;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @BeforeAll
  static void startS3AndWriteBackups() throws Exception {
    s3 = new S3ProxyServer(shared.resolve("s3"));
    s3.createBucket(BUCKET);
    source = new LocalSnapshotStore(shared.resolve("old"), PREFIX);
    put(Snapshot.delta(1, 5, T0, Compression.GZIP), 300);
    // larger than one 8 MiB part of the S3 store's multipart upload
    put(Snapshot.full(0, 5, T0.plusSeconds(60), Compression.GZIP, false), 9 * 1024 * 1024 + 3);
    put(Snapshot.delta(6, 50, T0.plusSeconds(80), Compression.GZIP), 4096);
    put(Snapshot.delta(51, 60, T0.plusSeconds(100), Compression.GZIP), 0);
    put(Snapshot.full(0, 60, T0.plusSeconds(3660), Compression.GZIP, false), 70_000);
    put(Snapshot.delta(61, 90, T0.plusSeconds(3680), Compression.GZIP), 2000);
    put(Snapshot.full(0, 90, T0.plusSeconds(7260), Compression.ZLIB, true), 80_000);
  }

  private static void put(Snapshot snapshot, int size) throws IOException {
    byte[] content = new byte[size];
    new Random(snapshot.endRevision() * 7 + size).nextBytes(content);
    source.put(snapshot, out -> out.write(content));
    CONTENTS.put(snapshot, content);
  }

  @AfterAll
  static void stopS3() throws Exception {
    s3.close();
  }

  private int druidAgentCopy(List<String> target, List<String> from, String... more) {
    List<String> args = new ArrayList<>(List.of("copy"));
    args.addAll(target);
    args.addAll(from);
    args.addAll(List.of(more));
    CommandLine agent = new CommandLine(new AgentCommand());
    agent.setOut(new PrintWriter(out, true));
    agent.setErr(new PrintWriter(err, true));
    return agent.execute(args.toArray(String[]::new));
  }

  private static List<String> s3Store(String flag, String prefix, String endpoint) {
    return List.of(flag + "-provider=S3", flag + "-container=" + BUCKET, flag + "-prefix="
        + prefix, flag + "-endpoint-override=" + endpoint, flag + "-secret-dir="
        + s3.secretDir());
  }

  private static List<String> localStore(String flag, Path container) {
    return List.of(flag + "-provider=Local", flag + "-container=" + container,
        flag + "-prefix=" + PREFIX);
  }

  private static byte[] read(SnapshotStore store, Snapshot snapshot) throws IOException {
    try (InputStream in = store.open(snapshot)) {
      return in.readAllBytes();
    }
  }

  /** What the source holds except the orphan delta, as copied: without the final flag. */
  private static Map<Snapshot, byte[]> expectedCopies(int newestBackups) {
    List<Snapshot> fulls = CONTENTS.keySet().stream().filter(Snapshot::isFull).toList();
    long fromRevision = fulls.get(fulls.size() - newestBackups).endRevision();
    Map<Snapshot, byte[]> expected = new LinkedHashMap<>();
    CONTENTS.forEach((s, content) -> {
      if (s.endRevision() > fromRevision || s.isFull() && s.endRevision() == fromRevision) {
        expected.put(BackupCopier.asCopied(s), content);
      }
    });
    return expected;
  }

  private static void assertHolds(SnapshotStore store, Map<Snapshot, byte[]> expected)
      throws IOException {
    assertThat(store.list()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    for (Map.Entry<Snapshot, byte[]> e : expected.entrySet()) {
      assertThat(read(store, e.getKey())).as(e.getKey().fileName()).isEqualTo(e.getValue());
    }
  }

  @Test
  void copiesLocalBackupsIntoS3AndBackAgain() throws Exception {
    String prefix = PREFIX + "-all";
    int exit = druidAgentCopy(s3Store("--store", prefix, s3.endpoint().toString()),
        localStore("--source-store", shared.resolve("old")),
        "--max-parallel-copy-operations=4", "--wait-for-final-snapshot=true",
        "--final-snapshot-check-interval=1s", "--wait-for-final-snapshot-timeout=10s");

    assertThat(exit).as(err.toString()).isZero();
    Map<Snapshot, byte[]> expected = expectedCopies(3);
    assertThat(expected).hasSize(6);
    long bytes = expected.values().stream().mapToLong(c -> c.length).sum();
    assertThat(out.toString().trim()).isEqualTo("copied 6 snapshot(s) (" + bytes
        + " bytes), skipped 0 already in the target");
    try (SnapshotStore copied = SnapshotStores.open(s3.storeConfig(BUCKET, prefix))) {
      assertHolds(copied, expected);
    }

    out.getBuffer().setLength(0);
    assertThat(druidAgentCopy(s3Store("--store", prefix, s3.endpoint().toString()),
        localStore("--source-store", shared.resolve("old")))).isZero();
    assertThat(out.toString().trim())
        .isEqualTo("copied 0 snapshot(s) (0 bytes), skipped 6 already in the target");

    Path back = work.resolve("back");
    assertThat(druidAgentCopy(localStore("--store", back),
        s3Store("--source-store", prefix, s3.endpoint().toString()))).as(err.toString())
        .isZero();
    assertHolds(new LocalSnapshotStore(back, PREFIX), expected);
  }

  @Test
  void copiesOnlyTheNewestBackups() throws Exception {
    String prefix = PREFIX + "-newest";
    int exit = druidAgentCopy(s3Store("--store", prefix, s3.endpoint().toString()),
        localStore("--source-store", shared.resolve("old")), "--max-backups-to-copy=2");

    assertThat(exit).as(err.toString()).isZero();
    try (SnapshotStore copied = SnapshotStores.open(s3.storeConfig(BUCKET, prefix))) {
      assertHolds(copied, expectedCopies(2));
    }
    assertThat(expectedCopies(2)).hasSize(3);
  }

  @Test
  void anUnreachableTargetFailsNamingIt() throws Exception {
    String nobody = "http://127.0.0.1:" + LoopbackPorts.on("127.0.0.1");
    long started = System.nanoTime();

    int exit = druidAgentCopy(s3Store("--store", PREFIX, nobody),
        localStore("--source-store", shared.resolve("old")));

    assertThat(exit).isEqualTo(CopyCommand.EXIT_FAILED);
    assertThat(err.toString()).startsWith("copy failed: cannot list the target store: ")
        .contains("s3://" + BUCKET + "/" + PREFIX + "/v2/");
    assertThat(out.toString()).isEmpty();
    assertThat(System.nanoTime() - started).isLessThan(30_000_000_000L);
  }
}
