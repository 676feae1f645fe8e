package cloud.gardener.druid.agent.etcd;

import cloud.gardener.druid.agent.tls.EtcdCredentials;
import cloud.gardener.druid.agent.tls.TlsFiles;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * etcd authentication of one client (as etcd-backup-restore's {@code --etcd-username} and
 * {@code --etcd-password}): a token from etcd's {@code /v3/auth/authenticate}, kept until etcd
 * refuses it (expired, etcd restarted, password changed) and then fetched again with the
 * credential files read anew. While etcd's authentication is off, calls go without a token
 * (as etcd's own client does) and it asks again after {@link #RECHECK}.
 */
public final class EtcdAuth {

  static final Duration RECHECK = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final EtcdCredentials credentials;
  private final URI endpoint;
  private final EtcdGateway gateway;
  private final Clock clock;
  private String token;
  private Instant offUntil = Instant.MIN;

  EtcdAuth(EtcdCredentials credentials, URI endpoint, Optional<TlsFiles> tls, Duration timeout,
      Clock clock) {
    this.credentials = credentials;
    this.endpoint = endpoint;
    this.gateway = new EtcdGateway(endpoint, tls, timeout, Optional.empty());
    this.clock = clock;
  }

  /** The token to send, or empty while etcd's authentication is off. */
  synchronized Optional<String> token() throws EtcdException {
    if (token != null) {
      return Optional.of(token);
    }
    if (clock.instant().isBefore(offUntil)) {
      return Optional.empty();
    }
    EtcdCredentials.Values values;
    try {
      values = credentials.read();
    } catch (IOException e) {
      throw new EtcdException("cannot authenticate to etcd at " + endpoint + ": cannot read "
          + credentials.describe() + ": " + e.getMessage(), e);
    }
    ObjectNode body = JSON.createObjectNode().put("name", values.username())
        .put("password", values.password());
    try {
      String answer = gateway.post("/v3/auth/authenticate", body.toString(),
          "authenticate to etcd at " + endpoint + " as " + credentials.describe());
      token = EtcdGateway.field(answer, "token").orElseThrow(() -> new EtcdException(
          "etcd at " + endpoint + " answered the authentication without a token", null));
      return Optional.of(token);
    } catch (EtcdException e) {
      if (e.getMessage().contains("authentication is not enabled")) {
        offUntil = clock.instant().plus(RECHECK);
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * Forgets {@code used} when etcd refused a call for its token ({@code status} is etcd's
   * message): the next call authenticates again. A call without a token that etcd refused
   * because its authentication is on now ends the wait for the next check.
   */
  synchronized void refused(String used, String message) {
    if (message == null) {
      return;
    }
    if (used != null && used.equals(token) && (message.contains("invalid auth token")
        || message.contains("revision of auth store is old"))) {
      token = null;
    }
    if (used == null && message.contains("user name is empty")) {
      offUntil = Instant.MIN;
    }
  }
}
