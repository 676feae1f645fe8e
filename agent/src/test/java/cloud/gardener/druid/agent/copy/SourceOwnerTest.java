package cloud.gardener.druid.agent.copy;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.StoreException;
import cloud.gardener.druid.agent.store.StoreIdentity;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A copy task reads only its own namespace's backups unless it names the source Etcd. */
class SourceOwnerTest {

  private static final StoreIdentity TEAM_B_ETCD = new StoreIdentity("team-b", "etcd-main");

  @TempDir
  Path work;
  private LocalSnapshotStore marked;

  @BeforeEach
  void setUp() throws Exception {
    marked = new LocalSnapshotStore(work, "team-b/etcd-main");
    marked.writeIdentity(TEAM_B_ETCD);
  }

  private static SourceOwner task(String namespace, String sourceEtcd) {
    return new SourceOwner(Optional.ofNullable(namespace),
        Optional.ofNullable(sourceEtcd).map(SourceOwner::parseEtcd));
  }

  @Test
  void anotherNamespacesBackupsAreRefused() {
    assertThatThrownBy(() -> task("team-a", null).check(marked))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("belong to Etcd team-b/etcd-main")
        .hasMessageContaining("another namespace than the task's (team-a)")
        .hasMessageContaining("--source-etcd");
  }

  @Test
  void theTasksOwnNamespaceOrTheNamedEtcdMayBeCopied() {
    assertThatCode(() -> task("team-b", null).check(marked)).doesNotThrowAnyException();
    assertThatCode(() -> task("team-a", "team-b/etcd-main").check(marked))
        .doesNotThrowAnyException();
  }

  @Test
  void aNamedEtcdMustBeTheOneTheMarkerNames() {
    assertThatThrownBy(() -> task("team-b", "team-b/etcd-events").check(marked))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("not to the named --source-etcd team-b/etcd-events");
    assertThatThrownBy(() -> SourceOwner.parseEtcd("etcd-main"))
        .hasMessageContaining("--source-etcd must be <namespace>/<name>");
  }

  @Test
  void aPrefixWithoutMarkerBelongsToNobody() {
    LocalSnapshotStore upstream = new LocalSnapshotStore(work, "written-by-backup-restore");
    assertThatCode(() -> task("team-a", null).check(upstream)).doesNotThrowAnyException();
  }
}
