package cloud.gardener.druid.agent.bench;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * One restore in a JVM of its own, as an agent does it when its pod starts: class loading
 * and JIT included. Arguments: store directory, data directory. Prints the time from the
 * process's start until the data directory is restored, and the most heap used.
 */
public final class FreshJvmRestore {

  private FreshJvmRestore() {
  }

  public static void main(String[] args) throws Exception {
    Restorer restorer = restorer(new LocalSnapshotStore(Path.of(args[0]), "bench"),
        Path.of(args[1]));
    try (HeapSampler heap = HeapSampler.start()) {
      restorer.restore(dir -> { });
      // an agent goes on to start etcd: the JVM's exit is not part of its restore
      Instant processStart = ProcessHandle.current().info().startInstant().orElseThrow();
      System.out.println("restored-after-millis "
          + Duration.between(processStart, Instant.now()).toMillis());
      System.out.println("max-heap-used-bytes " + heap.maxUsedBytes());
    }
  }

  /** The benchmark's single member restoring from {@code store} into {@code dataDir}. */
  static Restorer restorer(LocalSnapshotStore store, Path dataDir) throws IOException {
    MemberConfig member = TestConfigs.single("bench-0", "127.0.0.1", LoopbackPorts.on("127.0.0.1"),
        LoopbackPorts.on("127.0.0.1"), dataDir);
    return new Restorer(store, TestConfigs.tuning(), member);
  }
}
