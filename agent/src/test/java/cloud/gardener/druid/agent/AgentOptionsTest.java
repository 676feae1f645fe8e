package cloud.gardener.druid.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.config.AgentConfig;
import cloud.gardener.druid.agent.config.AgentTimings;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.api.v1alpha1.GarbageCollectionPolicy;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AgentOptionsTest {

  /** Parses {@code args}, with {@code --server-tls-dir=/tls} unless they say how to serve. */
  private static AgentConfig parse(String... args) {
    java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(args));
    if (all.stream().noneMatch(a -> a.startsWith("--insecure-api")
        || a.startsWith("--server-tls-dir"))) {
      all.add("--server-tls-dir=/tls");
    }
    return parseExactly(all.toArray(String[]::new));
  }

  private static AgentConfig parseExactly(String... args) {
    AgentCommand command = new AgentCommand();
    new CommandLine(command).parseArgs(args);
    return command.options.toConfig();
  }

  @Test
  void theApiAlwaysAuthenticatesItsCallersUnlessExplicitlyInsecure() {
    AgentConfig config = parse("--name=etcd-main-0");
    assertThat(config.serverTls().orElseThrow().ca()).isEqualTo(java.nio.file.Path.of(
        "/tls/ca.crt"));
    assertThat(config.apiCaller()).hasValue("etcd-druid-operator");
    assertThat(parse("--name=etcd-main-0", "--server-tls-dir=/t", "--api-client-name=ops")
        .apiCaller()).hasValue("ops");
    assertThatThrownBy(() -> parseExactly("--name=etcd-main-0"))
        .hasMessageContaining("--server-tls-dir is required");
    assertThatThrownBy(() -> parse("--name=etcd-main-0", "--insecure-api",
        "--server-tls-dir=/tls")).hasMessageContaining("exclude each other");
    assertThat(parse("--name=etcd-main-0", "--insecure-api").apiCaller()).isEmpty();
  }

  @Test
  void anEtcdAuthDirectoryNamesTheUserAndPasswordFiles() {
    assertThat(parse("--name=etcd-main-0").member().etcdCredentials()).isEmpty();
    var credentials = parse("--name=etcd-main-0", "--etcd-auth-dir=/var/etcd/auth").member()
        .etcdCredentials().orElseThrow();
    assertThat(credentials.username()).isEqualTo(java.nio.file.Path.of("/var/etcd/auth/username"));
    assertThat(credentials.password()).isEqualTo(java.nio.file.Path.of("/var/etcd/auth/password"));
  }

  @Test
  void upstreamsTimeoutsHeartbeatAndLeaderChecksHaveUpstreamsDefaultsAndMustBePositive() {
    AgentTimings unset = parse("--name=etcd-main-0").timings();
    assertThat(unset.snapshotTimeout()).isEqualTo(Duration.ofMinutes(15));
    assertThat(unset.defragTimeout()).isEqualTo(Duration.ofMinutes(15));
    assertThat(unset.leaseRenewal()).isEqualTo(Duration.ofSeconds(10));
    AgentTimings set = parse("--name=etcd-main-0", "--etcd-snapshot-timeout=20m",
        "--etcd-defrag-timeout=8m", "--k8s-heartbeat-duration=5s", "--reelection-period=5s",
        "--etcd-connection-timeout-leader-election=3s").timings();
    assertThat(set).isEqualTo(new AgentTimings(Duration.ofMinutes(20), Duration.ofMinutes(8),
        Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(3)));
    assertThatThrownBy(() -> parse("--name=etcd-main-0", "--etcd-defrag-timeout=0"))
        .hasMessageContaining("--etcd-defrag-timeout must be positive");
  }

  @Test
  void etcdMetricsAndFreelistTypeAreEtcdsValuesOrUpstreamsDefaults() {
    AgentConfig unset = parse("--name=etcd-main-0");
    assertThat(unset.etcd().metrics()).isEmpty();
    assertThat(unset.etcd().bboltFreelistType()).as("upstream #1374").hasValue("array");
    assertThat(unset.etcd().snapshotCount()).as("upstream #1166").isEqualTo(10_000);
    AgentConfig set = parse("--name=etcd-main-0", "--etcd-metrics=extensive",
        "--backend-bbolt-freelist-type=map");
    assertThat(set.etcd().metrics()).hasValue("extensive");
    assertThat(set.etcd().bboltFreelistType()).hasValue("map");
    assertThatThrownBy(() -> parse("--name=etcd-main-0", "--etcd-metrics=all"))
        .hasMessageContaining("--etcd-metrics must be one of basic, extensive, not all");
  }

  @Test
  void derivesTheClusterFromReplicasAndThePeerServiceDnsNames() {
    AgentConfig config = parse("--name=etcd-main-1", "--namespace=shoot", "--pod-ip=10.0.0.7",
        "--replicas=3");
    assertThat(config.member().etcdName()).isEqualTo("etcd-main");
    assertThat(config.member().advertiseHost()).isEqualTo("etcd-main-1.etcd-main-peer.shoot.svc");
    assertThat(config.member().initialCluster()).containsExactly(
        java.util.Map.entry("etcd-main-0",
            URI.create("http://etcd-main-0.etcd-main-peer.shoot.svc:2380")),
        java.util.Map.entry("etcd-main-1",
            URI.create("http://etcd-main-1.etcd-main-peer.shoot.svc:2380")),
        java.util.Map.entry("etcd-main-2",
            URI.create("http://etcd-main-2.etcd-main-peer.shoot.svc:2380")));
    assertThat(config.member().localClientUrl()).isEqualTo(URI.create("http://10.0.0.7:2379"));
    assertThat(config.member().clusterToken()).isEqualTo("shoot-etcd-main");
    assertThat(config.store()).isEmpty();
    assertThat(config.serverHost()).isEqualTo("10.0.0.7");
  }

  @Test
  void readsTheBackupSettingsWithUpstreamDefaults() {
    AgentConfig config = parse("--name=etcd-main-0", "--namespace=shoot",
        "--store-provider=S3", "--store-container=bucket",
        "--store-endpoint-override=http://127.0.0.1:9000", "--store-secret-dir=/secret",
        "--garbage-collection-policy=Exponential");
    StoreConfig store = config.store().orElseThrow();
    assertThat(store.prefix()).isEqualTo("shoot--etcd-main");
    assertThat(store.endpointOverride()).hasValue(URI.create("http://127.0.0.1:9000"));
    assertThat(config.snapshots().deltaPeriod()).isEqualTo(Duration.ofSeconds(20));
    assertThat(config.snapshots().deltaMemoryLimitBytes()).isEqualTo(10L * 1024 * 1024);
    assertThat(config.snapshots().fullSchedule().text()).isEqualTo("0 */1 * * *");
    assertThat(config.snapshots().gcPolicy()).isEqualTo(GarbageCollectionPolicy.Exponential);
    assertThat(config.etcd().quotaBackendBytes()).isEqualTo(8L * 1024 * 1024 * 1024);
    assertThat(config.snapshots().compression().format()).isEqualTo(Compression.GZIP);
    assertThat(config.snapshots().compression().level()).isEqualTo(1);
    assertThat(config.snapshots().deltaRetention()).isZero();
  }

  @Test
  void aStorePrefixOrContainerThatLeavesTheStoreIsRefusedAtStartup() {
    assertThatThrownBy(() -> parse("--name=etcd-main-0", "--store-provider=S3",
        "--store-container=bucket", "--store-prefix=../other--etcd-main"))
        .hasMessageContaining("--store-prefix '../other--etcd-main' must be a relative path");
    assertThatThrownBy(() -> parse("--name=etcd-main-0", "--store-provider=S3"))
        .as("no shared default bucket").hasMessageContaining("--store-container");
    assertThat(parse("--name=etcd-main-0", "--store-provider=Local").store().orElseThrow()
        .container()).isEqualTo("/var/etcd/backup");
  }

  @Test
  void zlibIsWrittenLzwIsRefusedAtStartup() {
    assertThat(parse("--name=etcd-main-0", "--compression-policy=zlib").snapshots()
        .compression().format()).isEqualTo(Compression.ZLIB);
    assertThatThrownBy(() -> parse("--name=etcd-main-0", "--compression-policy=lzw"))
        .hasMessageContaining("--compression-policy=lzw: this agent restores lzw snapshots "
            + "but does not write them; use gzip or zlib");
    assertThatThrownBy(() -> parse("--name=etcd-main-0", "--compression-policy=zstd"))
        .hasMessageContaining("must be gzip, zlib or lzw, not zstd");
  }

  @Test
  void theDeltaRetentionPeriodIsAGoDuration() {
    assertThat(parse("--name=etcd-main-0", "--delta-snapshot-retention-period=1h30m")
        .snapshots().deltaRetention()).isEqualTo(Duration.ofMinutes(90));
  }

  @Test
  void theCompressionLevelIsConfigurableAndChecked() {
    assertThat(parse("--name=etcd-main-0", "--compression-level=6").snapshots().compression()
        .level()).isEqualTo(6);
    assertThat(parse("--name=etcd-main-0", "--compress-snapshots=false").snapshots()
        .compression().format()).isEqualTo(Compression.NONE);
    assertThatThrownBy(() -> parse("--name=etcd-main-0", "--compression-level=10"))
        .hasMessageContaining("--compression-level must be 0..9, not 10");
  }
}
