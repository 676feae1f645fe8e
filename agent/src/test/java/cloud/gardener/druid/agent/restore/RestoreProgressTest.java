package cloud.gardener.druid.agent.restore;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.restore.RestoreProgress.Phase;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class RestoreProgressTest {

  private final RestoreProgress progress = new RestoreProgress(
      Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC));

  @Test
  void eachPhaseSaysHowFarTheRestoreIs() {
    assertThat(progress.current()).isEmpty();

    progress.update(Phase.DOWNLOAD, "Full-00000000-00000042-1.gz", 120L << 20, 512L << 20);
    assertThat(progress.current().get().describe()).isEqualTo(
        "restoring: full snapshot Full-00000000-00000042-1.gz: 120.0 MiB of 512.0 MiB read");

    progress.update(Phase.DOWNLOAD, "Full-00000000-00000042-1.gz", 3L << 20, 0);
    assertThat(progress.current().get().describe()).isEqualTo(
        "restoring: full snapshot Full-00000000-00000042-1.gz: 3.0 MiB read");

    progress.update(Phase.ETCDUTL, "Full-00000000-00000042-1.gz", 0, 0);
    assertThat(progress.current().get().describe()).isEqualTo("restoring: full snapshot"
        + " Full-00000000-00000042-1.gz read, etcdutl rebuilds the database");

    progress.update(Phase.DELTAS, "", 3, 12);
    assertThat(progress.current().get().describe())
        .isEqualTo("restoring: 3 of 12 delta snapshots replayed");

    progress.update(Phase.DONE, "revision 900", 0, 0);
    assertThat(progress.current().get().describe()).isEqualTo("restored up to revision 900");
  }
}
