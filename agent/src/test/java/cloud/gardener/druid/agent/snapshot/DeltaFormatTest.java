package cloud.gardener.druid.agent.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeltaFormatTest {

  private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

  @Test
  void writesTheEtcdBackupRestoreJsonFollowedByItsSha256() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DeltaFormat.write(List.of(
        DeltaEvent.put("k".getBytes(), "v".getBytes(), 5, 5, 1, 0, T),
        DeltaEvent.delete("k".getBytes(), 6, T)), out);
    byte[] all = out.toByteArray();
    String json = new String(all, 0, all.length - 32, StandardCharsets.UTF_8);
    assertThat(json).isEqualTo("[{\"etcdEvent\":{\"kv\":{\"key\":\"aw==\",\"create_revision\":5,"
        + "\"mod_revision\":5,\"version\":1,\"value\":\"dg==\"}},\"time\":\"2026-11-25T10:00:00Z\"},"
        + "{\"etcdEvent\":{\"type\":1,\"kv\":{\"key\":\"aw==\",\"mod_revision\":6}},"
        + "\"time\":\"2026-11-25T10:00:00Z\"}]");
    byte[] sha = MessageDigest.getInstance("SHA-256")
        .digest(json.getBytes(StandardCharsets.UTF_8));
    assertThat(java.util.Arrays.copyOfRange(all, all.length - 32, all.length)).isEqualTo(sha);
  }

  @Test
  void readsAnUpstreamDeltaBack() throws Exception {
    String upstream = "[{\"etcdEvent\":{\"kv\":{\"key\":\"L2Zvbw==\",\"create_revision\":2,"
        + "\"mod_revision\":3,\"version\":2,\"value\":\"YmFy\",\"lease\":7}},"
        + "\"time\":\"2024-01-02T03:04:05.123456789Z\"}]";
    byte[] json = upstream.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    file.write(json);
    file.write(MessageDigest.getInstance("SHA-256").digest(json));

    List<DeltaEvent> events = DeltaFormat.read(new ByteArrayInputStream(file.toByteArray()), "d");
    assertThat(events).hasSize(1);
    assertThat(new String(events.get(0).key())).isEqualTo("/foo");
    assertThat(new String(events.get(0).value())).isEqualTo("bar");
    assertThat(events.get(0).modRevision()).isEqualTo(3);
    assertThat(events.get(0).isDelete()).isFalse();
  }

  @Test
  void aFlippedByteFailsTheChecksumWithAClearMessage() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DeltaFormat.write(List.of(DeltaEvent.put("k".getBytes(), "v".getBytes(), 5, 5, 1, 0, T)),
        out);
    byte[] bytes = out.toByteArray();
    bytes[10] ^= 1;
    assertThatThrownBy(() -> DeltaFormat.read(new ByteArrayInputStream(bytes), "Incr-1-5-1"))
        .isInstanceOf(SnapshotIntegrityException.class)
        .hasMessage("Incr-1-5-1 failed its SHA-256 check");
  }

  @Test
  void aTimedReadTakesEachEventsTimeAsGoWritesIt() throws Exception {
    String json = "[{\"etcdEvent\":{\"kv\":{\"key\":\"L2E=\",\"mod_revision\":5,"
        + "\"value\":\"MQ==\"}},\"time\":\"2026-12-04T23:15:00.123456789+01:00\"},"
        + "{\"etcdEvent\":{\"type\":1,\"kv\":{\"key\":\"L2E=\",\"mod_revision\":6}},"
        + "\"time\":\"2026-12-04T22:15:01Z\"}]";
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(body);
    out.write(MessageDigest.getInstance("SHA-256").digest(body));

    List<DeltaEvent> events = DeltaFormat.readTimed(
        new ByteArrayInputStream(out.toByteArray()), "test");

    assertThat(events).extracting(DeltaEvent::time).containsExactly(
        Instant.parse("2026-12-04T22:15:00.123456789Z"),
        Instant.parse("2026-12-04T22:15:01Z"));
    assertThat(events.get(1).isDelete()).isTrue();
    assertThat(DeltaFormat.read(new ByteArrayInputStream(out.toByteArray()), "test"))
        .extracting(DeltaEvent::time).containsOnly(Instant.EPOCH);
  }
}
