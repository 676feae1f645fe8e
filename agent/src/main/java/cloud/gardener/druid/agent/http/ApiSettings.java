package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.config.AgentConfig;
import cloud.gardener.druid.agent.tls.TlsFiles;
import java.time.Duration;
import java.util.Optional;

/**
 * Where and how the agent API is served, and for which member.
 *
 * @param tls HTTPS with this certificate, its CA bundle issuing the callers'; plain HTTP when
 *     empty
 * @param caller the common name a caller's certificate must have; empty: every caller
 */
public record ApiSettings(String host, int port, Optional<TlsFiles> tls,
    Optional<String> caller, String memberName, Duration defragTimeout) {

  public static ApiSettings of(AgentConfig config) {
    return new ApiSettings(config.serverHost(), config.serverPort(), config.serverTls(),
        config.apiCaller(), config.member().name(), config.timings().defragTimeout());
  }
}
