package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.config.TlsFiles;
import cloud.gardener.druid.agent.util.TlsContexts;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * HTTPS for the agent API from PEM files: the server certificate and key, and the CA whose
 * client certificates are required (mutual TLS) when a CA file is given.
 */
final class ServerTls {

  private ServerTls() {
  }

  static HttpsServer https(InetSocketAddress address, TlsFiles tls) throws IOException {
    HttpsServer server = HttpsServer.create(address, 16);
    boolean mutual = tls.ca() != null;
    server.setHttpsConfigurator(new HttpsConfigurator(TlsContexts.of(tls)) {
      @Override
      public void configure(HttpsParameters params) {
        params.setNeedClientAuth(mutual);
      }
    });
    return server;
  }
}
