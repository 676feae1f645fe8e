package cloud.gardener.druid.operator.it;

import java.net.Socket;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts every server, host name included (an extended trust manager owns that check): for
 * tests of a server's client check or of what it serves, not of its certificate.
 */
final class TrustEveryServer extends X509ExtendedTrustManager {

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket s) {
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket s) {
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine e) {
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine e) {
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) {
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) {
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
