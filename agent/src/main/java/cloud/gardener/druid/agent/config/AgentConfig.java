package cloud.gardener.druid.agent.config;

import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.agent.tls.TlsFiles;
import cloud.gardener.druid.api.types.CronSchedule;
import java.time.Duration;
import java.util.Optional;

/**
 * Everything the agent runs by, built once from the command line ({@code druid agent}).
 *
 * @param store absent when the Etcd has no backup store (no snapshots, no restore)
 * @param serverTls TLS of the agent's own HTTP API; its CA bundle issues the callers'
 *     certificates
 * @param apiCaller the common name a caller's certificate must have on every path but the
 *     probes and metrics; empty only with {@code --insecure-api} (tests)
 * @param leases whether to renew the member and snapshot leases in Kubernetes
 * @param timings timeouts and periods of the agent's etcd calls and lease renewals
 */
public record AgentConfig(
    MemberConfig member,
    EtcdTuning etcd,
    Optional<StoreConfig> store,
    SnapshotPolicy snapshots,
    CronSchedule defragSchedule,
    String serverHost,
    int serverPort,
    Optional<TlsFiles> serverTls,
    Optional<String> apiCaller,
    Duration initRetryPeriod,
    boolean leases,
    AgentTimings timings) {
}
