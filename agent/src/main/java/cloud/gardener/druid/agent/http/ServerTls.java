package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.config.TlsFiles;
import cloud.gardener.druid.agent.util.TlsContexts;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * HTTPS for the agent API from PEM files: the server certificate and key, and the CA whose
 * client certificates are asked for when a CA file is given. A certificate the CA did not
 * issue fails the handshake; a client without one (the kubelet's probes) gets through the
 * handshake, and {@link #hasClientCertificate} lets the server refuse it everywhere but the
 * probe paths.
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
        params.setWantClientAuth(mutual);
      }
    });
    return server;
  }

  /** True when the exchange came over TLS with a client certificate the CA verified. */
  static boolean hasClientCertificate(HttpExchange exchange) {
    if (!(exchange instanceof HttpsExchange https)) {
      return false;
    }
    try {
      return https.getSSLSession().getPeerCertificates().length > 0;
    } catch (SSLPeerUnverifiedException e) {
      return false;
    }
  }
}
