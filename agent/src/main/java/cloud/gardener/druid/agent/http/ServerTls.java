package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.config.TlsFiles;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * HTTPS for the agent API from PEM files: the server certificate and key, and the CA whose
 * client certificates are required (mutual TLS) when a CA file is given.
 */
final class ServerTls {

  private ServerTls() {
  }

  static HttpsServer https(InetSocketAddress address, TlsFiles tls) throws IOException {
    SSLContext context = sslContext(tls);
    HttpsServer server = HttpsServer.create(address, 16);
    boolean mutual = tls.ca() != null;
    server.setHttpsConfigurator(new HttpsConfigurator(context) {
      @Override
      public void configure(HttpsParameters params) {
        params.setNeedClientAuth(mutual);
      }
    });
    return server;
  }

  private static SSLContext sslContext(TlsFiles tls) throws IOException {
    try {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      CertificateFactory x509 = CertificateFactory.getInstance("X.509");
      Collection<? extends Certificate> chain;
      try (var in = java.nio.file.Files.newInputStream(tls.cert())) {
        chain = x509.generateCertificates(in);
      }
      PrivateKey key = PemKeys.read(tls.key());
      keys.setKeyEntry("agent", key, new char[0], chain.toArray(Certificate[]::new));
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, new char[0]);
      TrustManagerFactory tmf = null;
      if (tls.ca() != null) {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (var in = java.nio.file.Files.newInputStream(tls.ca())) {
          int i = 0;
          for (Certificate ca : x509.generateCertificates(in)) {
            trust.setCertificateEntry("ca-" + i++, ca);
          }
        }
        tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
      return context;
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot load the agent's TLS files: " + e.getMessage(), e);
    }
  }

}
