package cloud.gardener.druid.agent.copy;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.AgentCommand;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.agent.testing.EmulatorStores;
import cloud.gardener.druid.agent.testing.S3ProxyServer;
import cloud.gardener.druid.testenv.emulators.AzuriteServer;
import cloud.gardener.druid.testenv.emulators.FakeGcsServer;
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
 * {@code druid agent copy} between providers, as a copy Job runs it: GCS (fake-gcs-server) →
 * S3 (s3proxy) → ABS (Azurite) → Local, each copy byte for byte in the same v2 layout.
 */
class CrossProviderCopyIT {

  private static final String PREFIX = "shoot--dev--etcd-main";
  private static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");

  @TempDir
  static Path work;
  private static FakeGcsServer gcs;
  private static S3ProxyServer s3;
  private static AzuriteServer abs;
  private static final Map<Snapshot, byte[]> CONTENTS = new LinkedHashMap<>();

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @BeforeAll
  static void startStoresAndBackUpToGcs() throws Exception {
    gcs = new FakeGcsServer(work.resolve("gcs"));
    gcs.createBucket("gcs-backups");
    s3 = new S3ProxyServer(work.resolve("s3"));
    s3.createBucket("s3-backups");
    abs = new AzuriteServer(work.resolve("abs"));
    EmulatorStores.createContainer(abs, "abs-backups");
    try (SnapshotStore source =
        SnapshotStores.open(EmulatorStores.gcs(gcs, "gcs-backups", PREFIX))) {
      put(source, Snapshot.full(0, 5, T0, Compression.GZIP, false), 9 * 1024 * 1024 + 3);
      put(source, Snapshot.delta(6, 50, T0.plusSeconds(20), Compression.GZIP), 4096);
      put(source, Snapshot.full(0, 60, T0.plusSeconds(3600), Compression.GZIP, false), 70_000);
      put(source, Snapshot.delta(61, 90, T0.plusSeconds(3620), Compression.GZIP), 0);
    }
  }

  private static void put(SnapshotStore store, Snapshot snapshot, int size) throws IOException {
    byte[] content = new byte[size];
    new Random(snapshot.endRevision() * 31 + size).nextBytes(content);
    store.put(snapshot, o -> o.write(content));
    CONTENTS.put(snapshot, content);
  }

  @AfterAll
  static void stopStores() throws Exception {
    gcs.close();
    s3.close();
    abs.close();
  }

  private static List<String> flags(String flag, StoreConfig config) {
    List<String> args = new ArrayList<>(List.of(flag + "-provider=" + config.provider(),
        flag + "-container=" + config.container(), flag + "-prefix=" + config.prefix()));
    config.endpointOverride().ifPresent(e -> args.add(flag + "-endpoint-override=" + e));
    config.secretDir().ifPresent(d -> args.add(flag + "-secret-dir=" + d));
    return args;
  }

  private int copy(StoreConfig target, StoreConfig source) {
    List<String> args = new ArrayList<>(List.of("copy"));
    args.addAll(flags("--store", target));
    args.addAll(flags("--source-store", source));
    CommandLine agent = new CommandLine(new AgentCommand());
    agent.setOut(new PrintWriter(out, true));
    agent.setErr(new PrintWriter(err, true));
    return agent.execute(args.toArray(String[]::new));
  }

  private static void assertHoldsEveryBackup(StoreConfig config) throws IOException {
    try (SnapshotStore store = SnapshotStores.open(config)) {
      assertThat(store.list()).containsExactlyElementsOf(CONTENTS.keySet());
      for (Map.Entry<Snapshot, byte[]> e : CONTENTS.entrySet()) {
        try (InputStream in = store.open(e.getKey())) {
          assertThat(in.readAllBytes()).as(e.getKey().fileName()).isEqualTo(e.getValue());
        }
      }
    }
  }

  @Test
  void copiesFromGcsToS3ToAzureToLocal() throws Exception {
    StoreConfig fromGcs = EmulatorStores.gcs(gcs, "gcs-backups", PREFIX);
    StoreConfig inS3 = s3.storeConfig("s3-backups", PREFIX);
    StoreConfig inAbs = EmulatorStores.abs(abs, "abs-backups", PREFIX);
    StoreConfig inLocal = new StoreConfig(StoreConfig.Provider.Local,
        work.resolve("local").toString(), PREFIX, java.util.Optional.empty(),
        java.util.Optional.empty());

    assertThat(copy(inS3, fromGcs)).as(err.toString()).isZero();
    assertHoldsEveryBackup(inS3);
    assertThat(copy(inAbs, inS3)).as(err.toString()).isZero();
    assertHoldsEveryBackup(inAbs);
    assertThat(copy(inLocal, inAbs)).as(err.toString()).isZero();
    assertHoldsEveryBackup(inLocal);
    assertThat(new LocalSnapshotStore(work.resolve("local"), PREFIX).directory()
        .resolve(CONTENTS.keySet().iterator().next().fileName())).exists();

    out.getBuffer().setLength(0);
    assertThat(copy(inLocal, fromGcs)).as(err.toString()).isZero();
    assertThat(out.toString().trim())
        .isEqualTo("copied 0 snapshot(s) (0 bytes), skipped 4 already in the target");
  }
}
