package cloud.gardener.druid.agent.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsExchange;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Who called: the common name of the client certificate the TLS handshake verified against
 * the agent's CA bundle. Only {@code expected} (the operator's name) is let through: another
 * certificate of the same CA, such as an etcd client certificate, is refused.
 */
record CallerCheck(String expected) {

  static final String ANONYMOUS = "anonymous";

  /**
   * The name of the exchange's verified client certificate (its common name, else its
   * subject), or {@link #ANONYMOUS}.
   */
  static String presented(HttpExchange exchange) {
    return certificate(exchange).map(c -> commonName(c)
        .orElse(c.getSubjectX500Principal().getName())).orElse(ANONYMOUS);
  }

  /** Lets {@code caller} through: 401 without a certificate, 403 for another name. */
  void check(String caller) throws HttpError {
    if (ANONYMOUS.equals(caller)) {
      throw new HttpError(401, "a client certificate of the agent's CA naming " + expected
          + " is required");
    }
    if (!expected.equals(caller)) {
      throw new HttpError(403, "the client certificate names " + caller + ", not "
          + expected);
    }
  }

  private static Optional<X509Certificate> certificate(HttpExchange exchange) {
    if (!(exchange instanceof HttpsExchange https)) {
      return Optional.empty();
    }
    try {
      Certificate[] chain = https.getSSLSession().getPeerCertificates();
      return chain.length > 0 && chain[0] instanceof X509Certificate x509
          ? Optional.of(x509) : Optional.empty();
    } catch (SSLPeerUnverifiedException e) {
      return Optional.empty();
    }
  }

  static Optional<String> commonName(X509Certificate cert) {
    try {
      for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          return Optional.of(String.valueOf(rdn.getValue()));
        }
      }
      return Optional.empty();
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }
}
