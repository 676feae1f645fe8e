package cloud.gardener.druid.agent.config;

import cloud.gardener.druid.api.types.CronSchedule;
import java.time.Duration;
import java.util.Optional;

/**
 * Everything the agent runs by, built once from the command line ({@code druid agent}).
 *
 * @param store absent when the Etcd has no backup store (no snapshots, no restore)
 * @param serverTls TLS of the agent's own HTTP API
 * @param leases whether to renew the member and snapshot leases in Kubernetes
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
    Duration initRetryPeriod,
    boolean leases) {
}
