package cloud.gardener.druid.agent.etcd;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.tls.TlsFiles;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The etcd configuration for this member, as etcd's config keys (which are also its flag
 * names): a pure function of the member, the tuning, the cluster to start in and its state,
 * and the minor of the etcd that runs it. Listens on the pod address, advertises the pod's
 * stable DNS name; etcd's corruption checks are on.
 */
public final class EtcdConfigBuilder {

  private EtcdConfigBuilder() {
  }

  public static Map<String, String> config(MemberConfig member, EtcdTuning tuning,
      Map<String, URI> cluster, ClusterState state, int etcdMinor) {
    Map<String, List<URI>> lists = new LinkedHashMap<>();
    cluster.forEach((name, url) -> lists.put(name, List.of(url)));
    return configOf(member, tuning, lists, state, etcdMinor);
  }

  /**
   * {@code cluster}: every member with each peer URL it advertises. A member joining a
   * running cluster advertises what it was added with, the others' URLs included (etcd
   * compares the sets); a new member its own URL alone: its additional URLs are registered
   * once it runs ({@code init.PeerUrlUpdate}).
   */
  public static Map<String, String> configOf(MemberConfig member, EtcdTuning tuning,
      Map<String, List<URI>> cluster, ClusterState state, int etcdMinor) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("name", member.name());
    c.put("data-dir", member.dataDir().toString());
    c.put("listen-client-urls", member.localClientUrl().toString());
    c.put("advertise-client-urls", member.advertiseClientUrl().toString());
    c.put("listen-peer-urls",
        member.peerScheme() + "://" + member.podIp() + ":" + member.peerPort());
    // joining (EXISTING): the URLs it was added with; a new cluster: its own URL alone
    List<URI> self = state == ClusterState.EXISTING ? member.advertisePeerUrls()
        : List.of(member.advertisePeerUrl());
    c.put("initial-advertise-peer-urls", self.stream().map(URI::toString)
        .collect(Collectors.joining(",")));
    c.put("initial-cluster", cluster.entrySet().stream()
        .flatMap(e -> e.getValue().stream().map(u -> e.getKey() + "=" + u))
        .collect(Collectors.joining(",")));
    c.put("initial-cluster-state", state.flag());
    c.put("initial-cluster-token", member.clusterToken());
    c.put("quota-backend-bytes", Long.toString(tuning.quotaBackendBytes()));
    c.put("snapshot-count", Long.toString(tuning.snapshotCount()));
    c.put("heartbeat-interval", Integer.toString(tuning.heartbeatIntervalMillis()));
    c.put("election-timeout", Integer.toString(tuning.electionTimeoutMillis()));
    c.put("enable-grpc-gateway", "true");
    c.putAll(EtcdBinaryVersion.corruptionChecks(etcdMinor,
        tuning.corruptCheckPeriod()));
    tuning.autoCompactionMode().ifPresent(m -> c.put("auto-compaction-mode", m));
    tuning.autoCompactionRetention().ifPresent(r -> c.put("auto-compaction-retention", r));
    tuning.metrics().ifPresent(m -> c.put("metrics", m));
    tuning.bboltFreelistType().ifPresent(t -> c.put("backend-bbolt-freelist-type", t));
    member.clientTls().ifPresent(tls -> putTls(c, "", tls));
    member.peerTls().ifPresent(tls -> putTls(c, "peer-", tls));
    if (member.peerTls().isPresent() && member.peerSkipClientSanVerification()) {
      c.put("peer-skip-client-san-verification", "true");
    }
    return c;
  }

  private static void putTls(Map<String, String> c, String prefix, TlsFiles tls) {
    c.put(prefix + "client-cert-auth", "true");
    c.put(prefix + "trusted-ca-file", tls.ca().toString());
    c.put(prefix + "cert-file", tls.cert().toString());
    c.put(prefix + "key-file", tls.key().toString());
  }

  public static String initialCluster(Map<String, URI> cluster) {
    return cluster.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(","));
  }

  /** The config as etcd command-line flags. */
  public static List<String> flags(Map<String, String> config) {
    List<String> flags = new ArrayList<>();
    config.forEach((key, value) -> flags.add("--" + key + "=" + value));
    return flags;
  }
}
