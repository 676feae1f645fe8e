package cloud.gardener.druid.agent.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The agent builds its etcd client before etcd listens: building it must not connect (a
 * refused connection makes the channel back off for a second), connecting ahead must.
 */
class MemberClientWarmUpTest {

  @Test
  void aWarmedUpClientConnectsOnlyWhenToldTo() throws Exception {
    try (ServerSocket etcd = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      etcd.setSoTimeout(500);
      URI endpoint = URI.create("http://127.0.0.1:" + etcd.getLocalPort());
      try (MemberClient client = new MemberClient(endpoint, Optional.empty()).warmUp()) {
        assertThat(accepted(etcd)).as("a connection after warmUp()").isFalse();

        etcd.setSoTimeout(30_000);
        client.connectAhead();
        assertThat(accepted(etcd)).as("a connection after connectAhead()").isTrue();
      }
    }
  }

  private static boolean accepted(ServerSocket server) throws Exception {
    try (Socket socket = server.accept()) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    }
  }
}
