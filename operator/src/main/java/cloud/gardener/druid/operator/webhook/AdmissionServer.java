package cloud.gardener.druid.operator.webhook;

import cloud.gardener.druid.api.tls.Certificates;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's HTTPS endpoint for admission reviews: one path, POST only, TLS with the
 * certificate the operator issued itself ({@link WebhookCertificates}). Bodies are bounded.
 */
final class AdmissionServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionServer.class);
  static final int MAX_BODY = 3 << 20; // the API server sends objects up to ~3 MiB

  private final HttpsServer server;
  private final ExecutorService threads;

  AdmissionServer(InetSocketAddress bind, Certificates.Issued serving, X509Certificate ca,
      String path, UnaryOperator<String> review) throws IOException {
    server = HttpsServer.create(bind, 0);
    server.setHttpsConfigurator(new HttpsConfigurator(sslContext(serving, ca)));
    threads = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "admission");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(threads);
    server.createContext(path, exchange -> handle(exchange, review));
  }

  void start() {
    server.start();
    LOG.info("admission webhook listening on {}", server.getAddress());
  }

  int port() {
    return server.getAddress().getPort();
  }

  private static void handle(HttpExchange exchange, UnaryOperator<String> review)
      throws IOException {
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readNBytes(MAX_BODY + 1);
      }
      if (body.length > MAX_BODY) {
        exchange.sendResponseHeaders(413, -1);
        return;
      }
      String answer;
      try {
        answer = review.apply(new String(body, StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        LOG.warn("admission review not understood: {}", e.getMessage());
        exchange.sendResponseHeaders(400, -1);
        return;
      }
      byte[] out = answer.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, out.length);
      exchange.getResponseBody().write(out);
    }
  }

  private static SSLContext sslContext(Certificates.Issued serving, X509Certificate ca) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      char[] password = new char[0];
      store.setKeyEntry("webhook", serving.key(), password,
          new Certificate[] {serving.certificate(), ca});
      KeyManagerFactory keys = KeyManagerFactory.getInstance(
          KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot set up the webhook's TLS", e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
