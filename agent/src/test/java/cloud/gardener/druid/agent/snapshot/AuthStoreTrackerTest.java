package cloud.gardener.druid.agent.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthStoreTrackerTest {

  private static final Snapshot OLDER = Snapshot.full(0, 10, Instant.parse(
      "2026-12-05T06:00:00Z"), Compression.GZIP, false);
  private static final Snapshot NEWEST = Snapshot.full(0, 20, Instant.parse(
      "2026-12-05T07:00:00Z"), Compression.GZIP, false);

  @TempDir
  Path dir;
  private long revision;
  private boolean answering = true;

  private AuthStoreTracker tracker() {
    return new AuthStoreTracker(() -> {
      if (!answering) {
        throw new EtcdException("no answer", null);
      }
      return revision;
    }, new LocalSnapshotStore(dir, "ns--etcd"));
  }

  @Test
  void anAuthStoreNeverChangedNeedsNoFullSnapshot() {
    revision = 1;
    assertThat(tracker().fullSnapshotDue()).as("etcd creates its auth store at revision 1")
        .isEmpty();
    revision = 0;
    assertThat(tracker().fullSnapshotDue()).isEmpty();
  }

  @Test
  void usersNotKnownToBeInTheNewestFullSnapshotMakeOneDue() {
    revision = 4;
    assertThat(tracker().fullSnapshotDue()).hasValueSatisfying(why -> assertThat(why)
        .contains("not known to hold etcd's users and roles (auth revision 4)"));
  }

  @Test
  void aChangeAfterTheNewestFullSnapshotMakesOneDueAndTheNextFullSnapshotSettlesIt() {
    AuthStoreTracker tracker = tracker();
    revision = 4;
    tracker.written(NEWEST, OptionalLong.of(4));
    assertThat(tracker.fullSnapshotDue()).isEmpty();
    revision = 7;
    assertThat(tracker.fullSnapshotDue()).hasValue("etcd's users, roles or passwords changed"
        + " since the newest full snapshot (auth revision 4, now 7)");
    tracker.written(NEWEST, OptionalLong.of(7));
    assertThat(tracker.fullSnapshotDue()).isEmpty();
  }

  @Test
  void theNextLeaderContinuesFromTheRevisionRecordedWithTheNewestFullSnapshot() {
    revision = 5;
    tracker().written(NEWEST, OptionalLong.of(5));
    AuthStoreTracker next = tracker();
    next.resume(NEWEST);
    assertThat(next.fullSnapshotDue()).isEmpty();

    AuthStoreTracker behind = tracker();
    behind.resume(Snapshot.full(0, 30, Instant.parse("2026-12-05T08:00:00Z"),
        Compression.GZIP, false));
    assertThat(behind.fullSnapshotDue()).as("the marker names an older full snapshot")
        .isPresent();
  }

  @Test
  void nothingIsDecidedWhileEtcdDoesNotAnswer() {
    AuthStoreTracker tracker = tracker();
    tracker.written(OLDER, OptionalLong.of(1));
    revision = 9;
    answering = false;
    assertThat(tracker.fullSnapshotDue()).isEmpty();
    answering = true;
    assertThat(tracker.fullSnapshotDue()).isPresent();
  }
}
