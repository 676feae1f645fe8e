package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSnapshotStoreTest extends SnapshotStoreContract {

  @TempDir
  Path root;
  private LocalSnapshotStore store;

  @BeforeEach
  void setUp() {
    store = new LocalSnapshotStore(root, "shoot--dev--etcd");
  }

  @Override
  SnapshotStore store() {
    return store;
  }

  @Test
  void writesUnderPrefixSlashV2() throws Exception {
    store.put(FULL, out -> out.write(1));
    assertThat(root.resolve("shoot--dev--etcd/v2").resolve(FULL.fileName())).exists();
  }

  @Test
  void leftoversOfACrashedWriteAreNotListedAndCollectedLater() throws Exception {
    Files.createDirectories(store.directory());
    Path leftover = store.directory().resolve(".tmp-" + FULL.fileName() + "-x");
    Files.writeString(leftover, "partial");
    assertThat(store.list()).isEmpty();

    assertThat(store.deleteAbandonedUploads(java.time.Instant.now().minusSeconds(3600)))
        .isZero();
    assertThat(store.deleteAbandonedUploads(java.time.Instant.now().plusSeconds(1)))
        .isEqualTo(1);
    assertThat(leftover).doesNotExist();
  }

  @Test
  void sizeIsTheStoredBytes() throws Exception {
    store().put(FULL, out -> out.write(new byte[1234]));
    assertThat(store().size(FULL)).hasValue(1234);
  }
}
