package cloud.gardener.druid.operator.certificates;

import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Whether every member serves a certificate on its peer URL, asked the way a peer would: a
 * new TLS handshake with each member's pod IP, reading the certificate the member presents.
 * The certificate is only looked at, nothing is sent: the member then rejects the connection
 * for its missing client certificate (etcd logs that), after having presented its own.
 */
public interface ServedCertificates {

  /** Whether every member with a pod presents the first certificate of {@code pem}. */
  boolean allServe(ClusterSnapshot s, String pem);

  /** By TLS handshakes, each waiting at most {@code timeoutMillis}. */
  static ServedCertificates byHandshake(int timeoutMillis) {
    return (s, pem) -> {
      List<X509Certificate> wanted = Pems.certificates(pem);
      if (wanted.isEmpty()) {
        return false;
      }
      String fingerprint = Pems.fingerprint(wanted.get(0));
      int port = EtcdDefaults.peerPort(s.etcd());
      return s.members().stream().map(MemberObservation::pod).flatMap(Optional::stream)
          .allMatch(p -> served(p, port, timeoutMillis).map(Pems::fingerprint)
              .filter(fingerprint::equals).isPresent());
    };
  }

  private static Optional<X509Certificate> served(Pod pod, int port, int timeoutMillis) {
    String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    if (ip == null || ip.isEmpty()) {
      return Optional.empty();
    }
    AtomicReference<X509Certificate> seen = new AtomicReference<>();
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new Capture(seen)}, null);
      try (Socket plain = new Socket()) {
        plain.connect(new InetSocketAddress(ip, port), timeoutMillis);
        plain.setSoTimeout(timeoutMillis);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory()
            .createSocket(plain, ip, port, false)) {
          socket.startHandshake();
        }
      }
    } catch (IOException | GeneralSecurityException e) {
      // refused for want of a client certificate: the member's own arrived before that
    }
    return Optional.ofNullable(seen.get());
  }

  /** Records the server's certificate; trusts nothing else, as nothing is sent. */
  final class Capture extends X509ExtendedTrustManager {
    private final AtomicReference<X509Certificate> seen;

    Capture(AtomicReference<X509Certificate> seen) {
      this.seen = seen;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
      seen.set(chain[0]);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
      seen.set(chain[0]);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
      seen.set(chain[0]);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws java.security.cert.CertificateException {
      throw new java.security.cert.CertificateException("not a server");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws java.security.cert.CertificateException {
      throw new java.security.cert.CertificateException("not a server");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws java.security.cert.CertificateException {
      throw new java.security.cert.CertificateException("not a server");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
