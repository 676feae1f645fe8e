package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LazySnapshotStoreTest {

  @TempDir
  Path dir;

  @Test
  void theStoreOpensOnItsFirstUseAndThenServesAsItself() throws Exception {
    Path root = Files.createDirectories(dir.resolve("backups"));
    LazySnapshotStore store = new LazySnapshotStore(new StoreConfig(StoreConfig.Provider.Local,
        root.toString(), "ns--etcd", Optional.empty(), Optional.empty()));
    assertThat(store.isOpen()).isFalse();
    assertThat(store.list()).isEmpty();
    assertThat(store.isOpen()).isTrue();
    store.writeIdentity(new StoreIdentity("ns", "etcd"));
    assertThat(new LocalSnapshotStore(root, "ns--etcd").readIdentity())
        .contains(new StoreIdentity("ns", "etcd"));
    store.close();
    assertThatThrownBy(store::list).hasMessageContaining("closed");
  }

  @Test
  void aSecretThatCannotWorkFailsTheFirstUseNamingTheKeyNotTheAgentsStart() throws Exception {
    Path secret = Files.createDirectories(dir.resolve("secret"));
    Files.writeString(secret.resolve("serviceaccount.json"),
        "{\"type\":\"service_account\",\"private_key\":\"not-a-key-1234\"}");
    LazySnapshotStore store = new LazySnapshotStore(new StoreConfig(StoreConfig.Provider.GCS,
        "backups", "p", Optional.of(URI.create("https://127.0.0.1:1")), Optional.of(secret)));
    assertThat(store.isOpen()).isFalse();
    assertThatThrownBy(store::list).hasMessageContaining("serviceaccount.json")
        .hasMessageNotContaining("not-a-key-1234");
    assertThat(store.location()).isEqualTo("GCS backups/p");
  }
}
