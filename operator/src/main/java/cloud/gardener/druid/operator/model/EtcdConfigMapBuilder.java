package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdConfig;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.SharedConfig;
import cloud.gardener.druid.api.types.Quantities;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The ConfigMap {@code <etcd>-config} with {@code etcd.conf.yaml}: the cluster-wide etcd
 * configuration, as upstream publishes it. Its checksum is part of the member revision. The
 * agent computes per-member values (name, listen and advertise URLs on its pod address,
 * initial-cluster-state) itself; listen addresses are not published here.
 */
public final class EtcdConfigMapBuilder {

  private EtcdConfigMapBuilder() {
  }

  public static ConfigMap build(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    return new ConfigMapBuilder()
        .withNewMetadata()
          .withName(names.configMap())
          .withNamespace(names.namespace())
          .withLabels(EtcdLabels.managed(etcd))
          .withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .addToData(MemberLayout.CONFIG_KEY, yaml(config(etcd)))
        .build();
  }

  /**
   * A checksum of the config as far as it concerns a running member: {@code initial-cluster}
   * only matters when a cluster is bootstrapped, so scaling does not roll the members.
   */
  public static String checksum(Etcd etcd) {
    Map<String, Object> relevant = new LinkedHashMap<>(config(etcd));
    relevant.remove("initial-cluster");
    return Revisions.of(relevant);
  }

  /** The etcd config as an ordered map (etcd's config-file keys). */
  static Map<String, Object> config(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    EtcdConfig ec = EtcdDefaults.etcd(etcd);
    String clientScheme = EtcdDefaults.clientTls(etcd) ? "https" : "http";
    String peerScheme = EtcdDefaults.peerTls(etcd) ? "https" : "http";
    int clientPort = EtcdDefaults.clientPort(etcd);
    int peerPort = EtcdDefaults.peerPort(etcd);
    int replicas = Math.max(1, EtcdDefaults.replicas(etcd));

    Map<String, Object> c = new LinkedHashMap<>();
    c.put("data-dir", MemberLayout.ETCD_DATA_DIR);
    c.put("metrics", ec.getMetrics() == null ? "basic" : ec.getMetrics().name().toLowerCase());
    c.put("snapshot-count",
        Optional.ofNullable(ec.getSnapshotCount()).orElse(EtcdDefaults.SNAPSHOT_COUNT));
    c.put("quota-backend-bytes", EtcdDefaults.quotaBytes(etcd));
    c.put("enable-grpc-gateway", Boolean.TRUE.equals(ec.getEnableGRPCGateway()));
    c.put("client-scheme", clientScheme);
    c.put("client-port", clientPort);
    c.put("peer-scheme", peerScheme);
    c.put("peer-port", peerPort);
    c.put("initial-cluster-token", "etcd-cluster");
    c.put("initial-cluster-state", "new");
    c.put("initial-cluster", IntStream.range(0, replicas)
        .mapToObj(i -> names.member(i) + "=" + peerScheme + "://" + names.memberHost(i) + ":"
            + peerPort)
        .collect(Collectors.joining(",")));
    SharedConfig shared = etcd.getSpec().getSharedConfig();
    c.put("auto-compaction-mode", shared == null || shared.getAutoCompactionMode() == null
        ? "periodic" : shared.getAutoCompactionMode().name().toLowerCase());
    c.put("auto-compaction-retention", shared == null || shared.getAutoCompactionRetention() == null
        ? "30m" : shared.getAutoCompactionRetention());
    c.put("backend-bbolt-freelist-type", EtcdDefaults.freelistType(etcd));
    if (EtcdDefaults.clientTls(etcd)) {
      c.put("client-transport-security", tls(MemberLayout.CLIENT_TLS_DIR));
    }
    if (EtcdDefaults.peerTls(etcd)) {
      c.put("peer-transport-security", tls(MemberLayout.PEER_TLS_DIR));
    }
    return c;
  }

  private static String yaml(Map<String, Object> config) {
    return Serialization.asYaml(config).replaceFirst("^---\n", "");
  }

  private static Map<String, Object> tls(String dir) {
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("cert-file", dir + "/tls.crt");
    t.put("key-file", dir + "/tls.key");
    t.put("client-cert-auth", true);
    t.put("trusted-ca-file", dir + "/" + MemberLayout.DEFAULT_CA_KEY);
    t.put("auto-tls", false);
    return t;
  }

  public static String caKey(KeyedSecretReference ca) {
    return ca.getDataKey() == null || ca.getDataKey().isEmpty()
        ? MemberLayout.DEFAULT_CA_KEY : ca.getDataKey();
  }
}
