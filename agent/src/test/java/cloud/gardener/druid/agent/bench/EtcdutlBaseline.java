package cloud.gardener.druid.agent.bench;

import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.ProcessRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The benchmarks' reference for a restore: {@code etcdutl snapshot restore} of one file. */
final class EtcdutlBaseline {

  private EtcdutlBaseline() {
  }

  /**
   * Restores {@code snapshot} into {@code dataDir} (etcdutl checks its hash) and returns how
   * long etcdutl took, in milliseconds; then deletes {@code dataDir} (not timed).
   */
  static long restoreMillis(Path binDir, Path snapshot, Path dataDir) throws IOException {
    long started = System.nanoTime();
    ProcessRunner.run(List.of(binDir.resolve("etcdutl").toString(), "snapshot", "restore",
        snapshot.toString(), "--data-dir=" + dataDir,
        "--name=bench-0", "--initial-cluster=bench-0=http://127.0.0.1:2380",
        "--initial-advertise-peer-urls=http://127.0.0.1:2380"), Duration.ofMinutes(30));
    long millis = (System.nanoTime() - started) / 1_000_000;
    Files2.deleteTree(dataDir);
    return millis;
  }
}
