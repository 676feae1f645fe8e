package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSnapshotStoreTest extends SnapshotStoreContract {

  @TempDir
  Path root;

  @Override
  StoreConfig freshStore() {
    return new StoreConfig(StoreConfig.Provider.Local, root.toString(), "shoot--dev--etcd",
        Optional.empty(), Optional.empty());
  }

  /** A store directory that is a file (a volume not mounted where the agent expects it). */
  @Override
  StoreConfig unreachableStore() throws Exception {
    Path file = Files.writeString(root.resolve("not-a-directory"), "x");
    return new StoreConfig(StoreConfig.Provider.Local, file.toString(), "shoot--dev--etcd",
        Optional.empty(), Optional.empty());
  }

  private LocalSnapshotStore local() {
    return (LocalSnapshotStore) store();
  }

  @Test
  void writesUnderPrefixSlashV2() throws Exception {
    store().put(FULL, out -> out.write(1));
    assertThat(root.resolve("shoot--dev--etcd/v2").resolve(FULL.fileName())).exists();
  }

  @Test
  void leftoversOfACrashedWriteAreNotListedAndCollectedLater() throws Exception {
    Files.createDirectories(local().directory());
    Path leftover = local().directory().resolve(".tmp-" + FULL.fileName() + "-x");
    Files.writeString(leftover, "partial");
    assertThat(store().list()).isEmpty();

    assertThat(store().deleteAbandonedUploads(java.time.Instant.now().minusSeconds(3600)))
        .isZero();
    assertThat(store().deleteAbandonedUploads(java.time.Instant.now().plusSeconds(1)))
        .isEqualTo(1);
    assertThat(leftover).doesNotExist();
  }

  @Test
  void sizeIsTheStoredBytes() throws Exception {
    store().put(FULL, out -> out.write(new byte[1234]));
    assertThat(store().size(FULL)).hasValue(1234);
  }
}
