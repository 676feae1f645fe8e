package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.store.StoreConfig.Provider;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A store whose prefix or container could reach outside it is refused when it opens. */
class StorePathsTest {

  @TempDir
  Path root;

  private StoreConfig config(Provider provider, String container, String prefix) {
    return new StoreConfig(provider, container, prefix,
        Optional.of(URI.create("http://127.0.0.1:1")), Optional.of(root));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/etc", "..", "../other-namespace--etcd", "a/../../b", "a//b", "a/",
      "", "a\\..\\b"})
  void aPrefixOutsideTheContainerIsRefusedNamingTheOption(String prefix) {
    for (Provider provider : Provider.values()) {
      String container = provider == Provider.Local ? root.toString() : "backups";
      assertThatThrownBy(() -> SnapshotStores.open(config(provider, container, prefix)))
          .as(provider + " " + prefix)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--store-prefix");
    }
    assertThat(root).isEmptyDirectory();
  }

  @ParameterizedTest
  @EnumSource(value = Provider.class, names = {"S3", "GCS", "ABS"})
  void aRemoteStoreNeedsANamedContainerThatIsNotAPath(Provider provider) {
    for (String container : new String[] {null, "", " ", "a/b", "../b", ".."}) {
      assertThatThrownBy(() -> SnapshotStores.open(config(provider, container, "p")))
          .as(provider + " " + container)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--store-container");
    }
  }

  @Test
  void aLocalStoreDirectoryWithDotDotIsRefused() {
    for (String container : new String[] {"", root + "/../elsewhere", "..", "a\\b"}) {
      assertThatThrownBy(() -> SnapshotStores.open(config(Provider.Local, container, "p")))
          .as(container)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--store-container");
    }
  }

  @Test
  void optionsOfACopySourceAreNamedAsSuch() {
    assertThatThrownBy(() -> config(Provider.S3, "backups", "../x").validate("source-"))
        .hasMessageContaining("--source-store-prefix '../x'");
    assertThatThrownBy(() -> config(Provider.S3, "", "x").validate("source-"))
        .hasMessageContaining("--source-store-container");
  }

  @Test
  void aLocalStoreStaysBelowItsRootAfterNormalisation() throws Exception {
    for (String prefix : new String[] {"..", "../sibling", "a/../../sibling", "a/..", "/etc"}) {
      assertThatThrownBy(() -> new LocalSnapshotStore(root.resolve("store"), prefix))
          .as(prefix)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("leaves the store directory");
    }
    LocalSnapshotStore nested = new LocalSnapshotStore(root.resolve("store"), "ns/etcd-main");
    nested.put(SnapshotStoreContract.FULL, out -> out.write(1));
    assertThat(Files.list(root.resolve("store/ns/etcd-main/v2")).count()).isEqualTo(1);
  }
}
