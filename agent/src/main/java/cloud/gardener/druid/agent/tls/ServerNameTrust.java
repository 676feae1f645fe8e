package cloud.gardener.druid.agent.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts a server whose chain the CA bundle verifies and whose certificate names the dialled
 * address or one of {@code names}. The agent reaches its own etcd by the pod's
 * address, which no certificate names (it is not known before the pod runs); upstream's
 * sidecar dials {@code <etcd>-local} instead, and certificates name the member's host names.
 * DNS names only, with a wildcard in the left-most label only (RFC 6125).
 */
final class ServerNameTrust extends X509ExtendedTrustManager {

  private static final int DNS_NAME = 2;

  private final X509ExtendedTrustManager chains;
  private final List<String> names;

  ServerNameTrust(X509ExtendedTrustManager chains, List<String> names) {
    this.chains = chains;
    this.names = List.copyOf(names);
  }

  /** A certificate that names the dialled address is trusted as usual. */
  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    try {
      chains.checkServerTrusted(chain, authType, engine);
    } catch (CertificateException byAddress) {
      checkServerTrusted(chain, authType);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    try {
      chains.checkServerTrusted(chain, authType, socket);
    } catch (CertificateException byAddress) {
      checkServerTrusted(chain, authType);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    chains.checkServerTrusted(chain, authType);
    List<String> named = dnsNames(chain[0]);
    if (names.stream().noneMatch(n -> named.stream().anyMatch(p -> matches(p, n)))) {
      throw new CertificateException("the server certificate names " + named
          + ", none of " + names);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    chains.checkClientTrusted(chain, authType, engine);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    chains.checkClientTrusted(chain, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    chains.checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return chains.getAcceptedIssuers();
  }

  static List<String> dnsNames(X509Certificate certificate) throws CertificateParsingException {
    Collection<List<?>> sans = certificate.getSubjectAlternativeNames();
    List<String> dns = new ArrayList<>();
    if (sans != null) {
      for (List<?> san : sans) {
        if (Integer.valueOf(DNS_NAME).equals(san.get(0))) {
          dns.add((String) san.get(1));
        }
      }
    }
    return dns;
  }

  /** Whether the certificate's {@code pattern} covers {@code name}. */
  static boolean matches(String pattern, String name) {
    String p = pattern.toLowerCase(Locale.ROOT);
    String n = name.toLowerCase(Locale.ROOT);
    if (!p.startsWith("*.")) {
      return p.equals(n);
    }
    int dot = n.indexOf('.');
    return dot > 0 && n.substring(dot).equals(p.substring(1));
  }
}
