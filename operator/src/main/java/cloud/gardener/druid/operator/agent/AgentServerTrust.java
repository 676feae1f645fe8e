package cloud.gardener.druid.operator.agent;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts an agent's server certificate when the Etcd's CA issued it and it names either the
 * address the operator dialled (the pod IP) or a host of the Etcd's peer domain
 * ({@code <member>.<etcd>-peer.<ns>.svc}, the stable pod names certificates are issued for;
 * the operator reaches agents by pod IP, which certificates rarely name). The CA check comes
 * from the JDK's PKIX trust manager; this class replaces only its host-name check.
 */
final class AgentServerTrust extends X509ExtendedTrustManager {

  private static final int SAN_DNS = 2;
  private static final int SAN_IP = 7;

  private final X509TrustManager ca;
  private final List<String> peerDomains;

  /** @param peerDomain {@code <etcd>-peer.<ns>.svc} */
  AgentServerTrust(X509TrustManager ca, String peerDomain) {
    this.ca = ca;
    this.peerDomains = List.of(peerDomain.toLowerCase(Locale.ROOT),
        peerDomain.toLowerCase(Locale.ROOT) + ".cluster.local");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    ca.checkServerTrusted(chain, authType);
    checkNames(chain[0], engine == null ? null : engine.getPeerHost());
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    ca.checkServerTrusted(chain, authType);
    checkNames(chain[0], socket == null || socket.getInetAddress() == null ? null
        : socket.getInetAddress().getHostAddress());
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    checkServerTrusted(chain, authType, (SSLEngine) null);
  }

  /** The certificate must name {@code dialled} or a host of the peer domain. */
  void checkNames(X509Certificate cert, String dialled) throws CertificateException {
    for (List<?> san : sans(cert)) {
      int type = (Integer) san.get(0);
      String value = String.valueOf(san.get(1)).toLowerCase(Locale.ROOT);
      if (type == SAN_IP && value.equals(dialled)) {
        return;
      }
      if (type == SAN_DNS && inPeerDomain(value)) {
        return;
      }
    }
    throw new CertificateException("the agent's certificate names neither " + dialled
        + " nor a host of " + peerDomains.get(0));
  }

  private boolean inPeerDomain(String dnsName) {
    String host = dnsName.startsWith("*.") ? "x" + dnsName.substring(1) : dnsName;
    int dot = host.indexOf('.');
    return dot > 0 && peerDomains.contains(host.substring(dot + 1));
  }

  private static Collection<List<?>> sans(X509Certificate cert) throws CertificateParsingException {
    Collection<List<?>> sans = cert.getSubjectAlternativeNames();
    return sans == null ? List.of() : sans;
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("the operator does not accept TLS clients");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("the operator does not accept TLS clients");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("the operator does not accept TLS clients");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return ca.getAcceptedIssuers();
  }
}
