package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The operator's probe endpoints, checked with {@code druid ctl probe} (what helm test runs). */
class OperatorHealthServerTest {

  private static int probe(String url) {
    return Druid.commandLine().execute("ctl", "probe", url);
  }

  @Test
  void readyOnlyOnceTheControllersStartedAndAliveThroughout() {
    try (OperatorHealthServer health = OperatorHealthServer.start("127.0.0.1", 0)) {
      String base = "http://127.0.0.1:" + health.port();
      assertThat(probe(base + "/healthz")).isZero();
      assertThat(probe(base + "/readyz")).isEqualTo(1);
      health.markReady();
      assertThat(probe(base + "/readyz")).isZero();
    }
  }

  @Test
  void probeOfNothingListeningFailsWithAMessage() {
    assertThat(probe("http://127.0.0.1:1/readyz")).isNotZero();
  }
}
