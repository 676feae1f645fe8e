package cloud.gardener.druid.agent.http;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import javax.net.ssl.SSLContext;

/**
 * HTTPS for the agent API. With {@code askForClients} the handshake asks for a client
 * certificate: one the CA bundle did not issue (or an expired one) fails the handshake; a
 * client without one (the kubelet's probes) gets through it, and {@link CallerCheck} refuses
 * it everywhere but the open paths.
 */
final class ServerTls {

  private ServerTls() {
  }

  static HttpsServer https(InetSocketAddress address, SSLContext context, boolean askForClients)
      throws IOException {
    HttpsServer server = HttpsServer.create(address, 64);
    server.setHttpsConfigurator(new HttpsConfigurator(context) {
      @Override
      public void configure(HttpsParameters params) {
        params.setWantClientAuth(askForClients);
      }
    });
    return server;
  }
}
