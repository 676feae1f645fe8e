package cloud.gardener.druid.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.config.AgentConfig;
import cloud.gardener.druid.agent.config.StoreConfig;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.api.v1alpha1.GarbageCollectionPolicy;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AgentOptionsTest {

  private static AgentConfig parse(String... args) {
    AgentCommand command = new AgentCommand();
    new CommandLine(command).parseArgs(args);
    return command.options.toConfig();
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
