package cloud.gardener.druid.testenv.controlplane;

import java.net.Socket;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * An HTTP client that accepts any certificate, as the kubelet does for HTTPS probes; used for
 * health checks of loopback processes whose certificates are self-signed.
 */
public final class InsecureHttp {

  private static final HttpClient CLIENT = create();

  private InsecureHttp() {
  }

  public static HttpClient client() {
    return CLIENT;
  }

  /**
   * A TLS context that trusts every server, host name included, and presents
   * {@code identity} (none when empty or null): for tests of what a server serves or of its
   * client check, not of its certificate.
   */
  public static SSLContext trustingEveryServer(KeyManager... identity) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(identity, new TrustManager[] {new TrustAll()}, new SecureRandom());
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static HttpClient create() {
    SSLParameters parameters = new SSLParameters();
    parameters.setEndpointIdentificationAlgorithm(null);
    return HttpClient.newBuilder()
        .sslContext(trustingEveryServer())
        .sslParameters(parameters)
        .connectTimeout(Duration.ofSeconds(2))
        .followRedirects(HttpClient.Redirect.NEVER)
        .version(HttpClient.Version.HTTP_1_1)
        .build();
  }

  /**
   * Extended, so that the JDK does not add its host-name check (the JDK HttpClient asks for
   * one whatever the SSLParameters say, and a plain X509TrustManager gets it wrapped around).
   */
  private static final class TrustAll extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
      // trust everything: probes and tests only
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
      // trust everything: probes and tests only
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
      // trust everything: probes and tests only
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
      // trust everything: probes and tests only
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
      // trust everything: probes and tests only
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
      // trust everything: probes and tests only
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
