package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotTest {

  @Test
  void namesFollowTheEtcdBackupRestoreV2Layout() {
    Instant at = Instant.ofEpochSecond(1700000000);
    assertThat(Snapshot.full(0, 42, at, Compression.GZIP, false).fileName())
        .isEqualTo("Full-00000000-00000042-1700000000.gz");
    assertThat(Snapshot.full(0, 42, at, Compression.NONE, true).fileName())
        .isEqualTo("Full-00000000-00000042-1700000000.final");
    assertThat(Snapshot.delta(43, 123456789, at, Compression.GZIP).fileName())
        .isEqualTo("Incr-00000043-123456789-1700000000.gz");
  }

  @Test
  void parsesUpstreamNamesAndIgnoresEverythingElse() {
    assertThat(Snapshot.parse("Full-00000000-00000042-1700000000.gz.final")).hasValueSatisfying(
        s -> {
          assertThat(s.isFull()).isTrue();
          assertThat(s.isFinal()).isTrue();
          assertThat(s.compression()).isEqualTo(Compression.GZIP);
          assertThat(s.endRevision()).isEqualTo(42);
        });
    assertThat(Snapshot.parse("Incr-00000043-00000050-1700000001")).hasValueSatisfying(
        s -> assertThat(s.compression()).isEqualTo(Compression.NONE));
    assertThat(Snapshot.parse(".tmp-Full-00000000-00000042-1700000000.gz-uuid")).isEmpty();
    assertThat(Snapshot.parse("Backup-1700000000")).isEmpty();
  }

  @Test
  void ordersByRevisionWithTheFullBeforeItsDeltas() {
    Instant at = Instant.ofEpochSecond(1);
    Snapshot full = Snapshot.full(0, 10, at, Compression.GZIP, false);
    Snapshot before = Snapshot.delta(5, 10, at, Compression.GZIP);
    Snapshot after = Snapshot.delta(11, 20, at, Compression.GZIP);
    List<Snapshot> list = new ArrayList<>(List.of(after, before, full));
    list.sort(Snapshot.ORDER);
    assertThat(list).containsExactly(full, before, after);
  }
}
