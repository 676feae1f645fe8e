package cloud.gardener.druid.operator.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.api.agent.AgentApi;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A slow agent answer fails after the action timeout, unless the caller allowed longer; a
 * busy agent (429) is asked again after its Retry-After.
 */
class HttpAgentClientTimeoutTest {

  HttpServer agent;
  AgentEndpoint endpoint;
  final java.util.concurrent.atomic.AtomicInteger busyAnswers =
      new java.util.concurrent.atomic.AtomicInteger(2);

  @BeforeEach
  void startSlowAgent() throws Exception {
    agent = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    agent.createContext(AgentApi.SNAPSHOT_FULL, e -> {
      try {
        Thread.sleep(1_500);
      } catch (InterruptedException ignored) {
        Thread.currentThread().interrupt();
      }
      byte[] body = "{\"endRevision\":42}".getBytes(StandardCharsets.UTF_8);
      e.sendResponseHeaders(200, body.length);
      e.getResponseBody().write(body);
      e.close();
    });
    agent.createContext(AgentApi.DEFRAGMENT, e -> {
      boolean busy = busyAnswers.getAndDecrement() > 0;
      byte[] body = (busy ? "{\"error\":\"busy\"}" : "{\"defragmented\":\"m-0\"}")
          .getBytes(StandardCharsets.UTF_8);
      e.getResponseHeaders().set("Retry-After", "0");
      e.sendResponseHeaders(busy ? AgentApi.BUSY : 200, body.length);
      e.getResponseBody().write(body);
      e.close();
    });
    agent.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    agent.start();
    endpoint = new AgentEndpoint("m-0", agent.getAddress().getHostString(),
        agent.getAddress().getPort(), false);
  }

  @AfterEach
  void stop() {
    agent.stop(0);
  }

  @Test
  void aLongerActionTimeoutLetsASlowSnapshotAnswer() {
    HttpAgentClient client = new HttpAgentClient((javax.net.ssl.SSLContext) null,
        Duration.ofSeconds(2), Duration.ofMillis(300));
    assertThatThrownBy(() -> client.fullSnapshot(endpoint, false))
        .isInstanceOf(AgentClient.AgentException.class).hasMessageContaining("did not answer");
    assertThat(client.withActionTimeout(Duration.ofSeconds(10)).fullSnapshot(endpoint, false))
        .isEqualTo(42);
  }

  @Test
  void aBusyAgentIsAskedAgainAfterItsRetryAfter() {
    HttpAgentClient client = new HttpAgentClient((javax.net.ssl.SSLContext) null,
        Duration.ofSeconds(2), Duration.ofSeconds(30));
    client.defragment(endpoint);
    assertThat(busyAnswers.get()).isNegative();
  }
}
