package cloud.gardener.druid.agent.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.tls.TlsFiles;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EtcdConfigBuilderTest {

  private static final Map<String, URI> CLUSTER = new LinkedHashMap<>(Map.of(
      "etcd-main-0", URI.create("https://etcd-main-0.etcd-main-peer.shoot.svc:2380")));

  private static MemberConfig member(Optional<TlsFiles> tls) {
    return new MemberConfig("etcd-main-0", "etcd-main", "shoot", "10.1.2.3",
        "etcd-main-0.etcd-main-peer.shoot.svc", 2379, 2380, CLUSTER, "shoot-etcd-main",
        Path.of("/var/etcd/data/new.etcd"), tls, tls);
  }

  private static final EtcdTuning TUNING = new EtcdTuning(Path.of("/usr/local/bin"),
      8L << 30, 75000, 100, 1000, Optional.of("periodic"), Optional.of("30m"),
      Optional.of("extensive"), Optional.of("array"));

  @Test
  void listensOnThePodAddressAndAdvertisesThePodDnsName() {
    Map<String, String> c = EtcdConfigBuilder.config(member(Optional.empty()), TUNING, CLUSTER,
        ClusterState.NEW, 6);
    assertThat(c).containsEntry("name", "etcd-main-0")
        .containsEntry("data-dir", "/var/etcd/data/new.etcd")
        .containsEntry("listen-client-urls", "http://10.1.2.3:2379")
        .containsEntry("advertise-client-urls",
            "http://etcd-main-0.etcd-main-peer.shoot.svc:2379")
        .containsEntry("listen-peer-urls", "http://10.1.2.3:2380")
        .containsEntry("initial-advertise-peer-urls",
            "http://etcd-main-0.etcd-main-peer.shoot.svc:2380")
        .containsEntry("initial-cluster",
            "etcd-main-0=https://etcd-main-0.etcd-main-peer.shoot.svc:2380")
        .containsEntry("initial-cluster-state", "new")
        .containsEntry("initial-cluster-token", "shoot-etcd-main")
        .containsEntry("quota-backend-bytes", "8589934592")
        .containsEntry("auto-compaction-mode", "periodic")
        .containsEntry("auto-compaction-retention", "30m")
        .containsEntry("metrics", "extensive")
        .containsEntry("backend-bbolt-freelist-type", "array")
        .doesNotContainKey("cert-file");
  }

  @Test
  void addsClientAndPeerTlsWhenConfigured() {
    TlsFiles tls = new TlsFiles(Path.of("/tls/ca.crt"), Path.of("/tls/tls.crt"),
        Path.of("/tls/tls.key"));
    Map<String, String> c = EtcdConfigBuilder.config(member(Optional.of(tls)), TUNING, CLUSTER,
        ClusterState.EXISTING, 6);
    assertThat(c).containsEntry("listen-client-urls", "https://10.1.2.3:2379")
        .containsEntry("client-cert-auth", "true")
        .containsEntry("trusted-ca-file", "/tls/ca.crt")
        .containsEntry("peer-cert-file", "/tls/tls.crt")
        .containsEntry("peer-key-file", "/tls/tls.key")
        .containsEntry("initial-cluster-state", "existing");
    assertThat(EtcdConfigBuilder.flags(c)).contains("--initial-cluster-state=existing");
  }

  @Test
  void skipsThePeerClientSanCheckOnlyWhenAskedAndPeerTlsIsOn() {
    TlsFiles tls = new TlsFiles(Path.of("/tls/ca.crt"), Path.of("/tls/tls.crt"),
        Path.of("/tls/tls.key"));
    MemberConfig withTls = member(Optional.of(tls));
    MemberConfig skipping = new MemberConfig(withTls.name(), withTls.etcdName(),
        withTls.namespace(), withTls.podIp(), withTls.advertiseHost(), withTls.clientPort(),
        withTls.peerPort(), CLUSTER, withTls.clusterToken(), withTls.dataDir(),
        Optional.empty(), Optional.of(tls), true);
    assertThat(EtcdConfigBuilder.config(skipping, TUNING, CLUSTER, ClusterState.NEW, 6))
        .containsEntry("peer-skip-client-san-verification", "true")
        .containsEntry("listen-peer-urls", "https://10.1.2.3:2380");
    assertThat(EtcdConfigBuilder.config(withTls, TUNING, CLUSTER, ClusterState.NEW, 6))
        .doesNotContainKey("peer-skip-client-san-verification");
  }

  /**
   * A member joining a running cluster lists every member with each peer URL it advertises
   * (etcd matches the sets) and advertises its own additional URLs too.
   */
  @Test
  void aJoiningMemberListsEveryPeerUrlOfEveryMember() {
    MemberConfig joining = member(Optional.empty()).withAdditionalPeerUrls(
        java.util.List.of(URI.create("http://etcd-main-0.other.net:2380")));
    Map<String, java.util.List<URI>> cluster = new LinkedHashMap<>();
    cluster.put("src-0", java.util.List.of(URI.create("http://10.0.0.1:2380"),
        URI.create("http://src-0.example:2380")));
    cluster.put("etcd-main-0", joining.advertisePeerUrls());
    Map<String, String> c = EtcdConfigBuilder.configOf(joining, TUNING, cluster,
        ClusterState.EXISTING, 6);
    assertThat(c).containsEntry("initial-advertise-peer-urls",
            "http://etcd-main-0.etcd-main-peer.shoot.svc:2380,http://etcd-main-0.other.net:2380")
        .containsEntry("initial-cluster", "src-0=http://10.0.0.1:2380,"
            + "src-0=http://src-0.example:2380,"
            + "etcd-main-0=http://etcd-main-0.etcd-main-peer.shoot.svc:2380,"
            + "etcd-main-0=http://etcd-main-0.other.net:2380")
        .containsEntry("initial-cluster-state", "existing");
    // a new cluster bootstraps with the pod's own URL (etcd derives member ids from them)
    assertThat(EtcdConfigBuilder.config(joining, TUNING, CLUSTER, ClusterState.NEW, 6))
        .containsEntry("initial-advertise-peer-urls",
            "http://etcd-main-0.etcd-main-peer.shoot.svc:2380");
  }

  /** etcd's corruption checks are on, as each minor spells them (3.7 knows no old name). */
  @Test
  void turnsOnEtcdsCorruptionChecksAsEachMinorSpellsThem() {
    MemberConfig m = member(Optional.empty());
    assertThat(EtcdConfigBuilder.config(m, TUNING, CLUSTER, ClusterState.NEW, 5))
        .containsEntry("experimental-initial-corrupt-check", "true")
        .containsEntry("experimental-compact-hash-check-enabled", "true")
        .containsEntry("experimental-corrupt-check-time", "60m")
        .doesNotContainKeys("feature-gates", "corrupt-check-time");
    for (int minor : new int[] {6, 7}) {
      assertThat(EtcdConfigBuilder.config(m, TUNING, CLUSTER, ClusterState.NEW, minor))
          .containsEntry("feature-gates", "InitialCorruptCheck=true,CompactHashCheck=true")
          .containsEntry("corrupt-check-time", "60m")
          .doesNotContainKeys("experimental-initial-corrupt-check",
              "experimental-compact-hash-check-enabled", "experimental-corrupt-check-time");
    }
  }

  /** The periodic check's period as the agent's --corrupt-check-period gives it. */
  @Test
  void aShorterPeriodicCheckIsWrittenInMilliseconds() {
    EtcdTuning fast = new EtcdTuning(TUNING.binDir(), TUNING.quotaBackendBytes(),
        TUNING.snapshotCount(), TUNING.heartbeatIntervalMillis(),
        TUNING.electionTimeoutMillis(), TUNING.autoCompactionMode(),
        TUNING.autoCompactionRetention(), TUNING.metrics(), TUNING.bboltFreelistType(),
        java.time.Duration.ofSeconds(5));
    assertThat(EtcdConfigBuilder.config(member(Optional.empty()), fast, CLUSTER,
        ClusterState.NEW, 6)).containsEntry("corrupt-check-time", "5000ms");
    assertThat(EtcdConfigBuilder.config(member(Optional.empty()), fast, CLUSTER,
        ClusterState.NEW, 5)).containsEntry("experimental-corrupt-check-time", "5000ms");
  }
}
