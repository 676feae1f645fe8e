package cloud.gardener.druid.agent.etcd;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.TlsFiles;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLException;

/** jetcd clients for this member or other members, with the client TLS when configured. */
public final class EtcdClients {

  private EtcdClients() {
  }

  public static Client connect(List<URI> endpoints, Optional<TlsFiles> tls) {
    ClientBuilder builder = Client.builder()
        .endpoints(endpoints.toArray(URI[]::new))
        .connectTimeout(Duration.ofSeconds(5))
        .keepaliveTime(Duration.ofSeconds(30))
        .maxInboundMessageSize(64 * 1024 * 1024)
        .retryMaxAttempts(1);
    if (tls.isPresent()) {
      TlsFiles files = tls.get();
      try {
        builder.sslContext(b -> b.trustManager(files.ca().toFile())
            .keyManager(files.cert().toFile(), files.key().toFile()));
      } catch (SSLException e) {
        throw new IllegalStateException("cannot load the etcd client TLS files: " + e, e);
      }
    }
    return builder.build();
  }

  public static Client local(MemberConfig member) {
    return connect(List.of(member.localClientUrl()), member.clientTls());
  }
}
