package cloud.gardener.druid.agent.testing;

import cloud.gardener.druid.agent.config.StoreConfig;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import java.net.URI;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.Optional;

/**
 * A process that starts a full snapshot upload, writes more than one S3 part, says
 * "UPLOADING" and then hangs until it is killed. Arguments: {@code Local <dir>} or
 * {@code S3 <bucket> <endpoint> <secretDir>}.
 */
public final class InterruptedUploadMain {

  private InterruptedUploadMain() {
  }

  public static void main(String[] args) throws Exception {
    StoreConfig config = args[0].equals("Local")
        ? new StoreConfig(StoreConfig.Provider.Local, args[1], "default--etcd-test",
            Optional.empty(), Optional.empty())
        : new StoreConfig(StoreConfig.Provider.S3, args[1], "default--etcd-test",
            Optional.of(URI.create(args[2])), Optional.of(Paths.get(args[3])));
    SnapshotStore store = SnapshotStores.open(config);
    Snapshot snapshot = Snapshot.full(0, 99, Instant.now(), Snapshot.Compression.GZIP, false);
    store.put(snapshot, out -> {
      byte[] chunk = new byte[1 << 20];
      for (int i = 0; i < 12; i++) {
        out.write(chunk);
      }
      out.flush();
      System.out.println("UPLOADING");
      System.out.flush();
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }
}
