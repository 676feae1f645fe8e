package cloud.gardener.druid.agent.etcd;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.tls.EtcdCredentials;
import cloud.gardener.druid.agent.tls.TlsContexts;
import cloud.gardener.druid.agent.tls.TlsFiles;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import java.io.IOException;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** jetcd clients for this member or other members, with the client TLS when configured. */
public final class EtcdClients {

  private EtcdClients() {
  }

  public static Client connect(List<URI> endpoints, Optional<TlsFiles> tls) {
    return withAuth(endpoints, tls, Optional.empty());
  }

  /** A client whose calls carry the token of {@code auth} (etcd authentication). */
  static Client withAuth(List<URI> endpoints, Optional<TlsFiles> tls, Optional<EtcdAuth> auth) {
    ClientBuilder builder = Client.builder()
        .endpoints(endpoints.toArray(URI[]::new))
        .connectTimeout(Duration.ofSeconds(5))
        .keepaliveTime(Duration.ofSeconds(30))
        .maxInboundMessageSize(64 * 1024 * 1024)
        .retryMaxAttempts(1);
    if (tls.isPresent()) {
      TlsFiles files = tls.get();
      try {
        // keys of every PEM kind via PemKeys (netty alone reads PKCS#8 only)
        PrivateKey key = TlsContexts.privateKey(files.key());
        X509Certificate[] chain = TlsContexts.certificates(files.cert())
            .toArray(X509Certificate[]::new);
        javax.net.ssl.X509ExtendedTrustManager trust = TlsContexts.trust(files);
        builder.sslContext(b -> b.trustManager(trust).keyManager(key, chain));
      } catch (IOException | GeneralSecurityException e) {
        throw new IllegalStateException("cannot load the etcd client TLS files: "
            + e.getMessage(), e);
      }
    }
    auth.ifPresent(a -> builder.interceptor(new EtcdAuthInterceptor(a)));
    return builder.build();
  }

  /** A client of a cluster's {@code endpoints} as the etcd user of {@code credentials}. */
  public static Client connect(List<URI> endpoints, Optional<TlsFiles> tls,
      Optional<EtcdCredentials> credentials) {
    return withAuth(endpoints, tls, credentials.map(c -> new EtcdAuth(c, endpoints.get(0), tls,
        Duration.ofSeconds(10), java.time.Clock.systemUTC())));
  }
}
