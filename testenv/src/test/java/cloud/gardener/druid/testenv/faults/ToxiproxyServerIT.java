package cloud.gardener.druid.testenv.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.testenv.process.ProcessLedger;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Toxiproxy server built by {@code testenv/toxiproxy/build.sh} in front of a loopback HTTP
 * server (the place of a store emulator): each fault the store tests need holds while its
 * toxic is on and ends when it is removed.
 */
class ToxiproxyServerIT {

  private static final int BODY = 16 * 1024;

  @TempDir
  Path dir;

  private HttpServer upstream;

  @BeforeEach
  void startUpstream() throws IOException {
    upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    upstream.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, BODY);
      exchange.getResponseBody().write(new byte[BODY]);
      exchange.close();
    });
    upstream.start();
  }

  @AfterEach
  void stopUpstream() {
    upstream.stop(0);
  }

  private static int get(int port, Duration timeout) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
    return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/x"))
        .timeout(timeout).build(), HttpResponse.BodyHandlers.ofByteArray()).body().length;
  }

  @Test
  void aTimeoutAResetAndSlowBandwidthHoldWhileOnAndEndWhenRemoved() throws Exception {
    try (ToxiproxyServer toxiproxy = ToxiproxyServer.start(dir, ProcessLedger.inMemory())) {
      int port = toxiproxy.proxy("store", "127.0.0.1:" + upstream.getAddress().getPort());
      assertThat(get(port, Duration.ofSeconds(5))).isEqualTo(BODY);

      toxiproxy.addToxic("store", "hang", "timeout", "downstream", Map.of("timeout", 0L));
      assertThatThrownBy(() -> get(port, Duration.ofSeconds(2)))
          .isInstanceOf(HttpTimeoutException.class);
      toxiproxy.removeToxic("store", "hang");
      assertThat(get(port, Duration.ofSeconds(5))).isEqualTo(BODY);

      toxiproxy.addToxic("store", "reset", "reset_peer", "upstream", Map.of("timeout", 0L));
      assertThatThrownBy(() -> get(port, Duration.ofSeconds(5))).isInstanceOf(IOException.class)
          .isNotInstanceOf(HttpTimeoutException.class);
      toxiproxy.removeToxic("store", "reset");

      toxiproxy.addToxic("store", "slow", "bandwidth", "downstream", Map.of("rate", 8L));
      long started = System.nanoTime();
      assertThat(get(port, Duration.ofSeconds(20))).isEqualTo(BODY);
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("16 KiB at 8 KB/s").isGreaterThan(Duration.ofMillis(1500));
      toxiproxy.removeToxic("store", "slow");
      assertThat(get(port, Duration.ofSeconds(5))).isEqualTo(BODY);
    }
  }
}
