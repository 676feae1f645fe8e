package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;

/**
 * Names of everything the operator manages for one Etcd. Member {@code i} is pod
 * {@code <prefix>-i} with a stable DNS name through the peer service; its volume is PVC
 * {@code <template>-<etcd>-i}, the name upstream's StatefulSet gives it, so that a cluster
 * run by upstream can be taken over with its data in place.
 */
public record EtcdNames(String etcd, String namespace, String memberPrefix, String volumeTemplate) {

  public static EtcdNames of(Etcd etcd) {
    String name = etcd.getMetadata().getName();
    var spec = etcd.getSpec();
    String prefix = spec.getMemberNamePrefix() == null ? name : spec.getMemberNamePrefix();
    String template = spec.getVolumeClaimTemplate() == null || spec.getVolumeClaimTemplate().isEmpty()
        ? name : spec.getVolumeClaimTemplate();
    return new EtcdNames(name, etcd.getMetadata().getNamespace(), prefix, template);
  }

  public String member(int ordinal) {
    return memberPrefix + "-" + ordinal;
  }

  /** The ordinal of a member name of this Etcd, or -1 when the name is not one. */
  public int ordinalOf(String memberName) {
    String p = memberPrefix + "-";
    if (memberName == null || !memberName.startsWith(p)) {
      return -1;
    }
    try {
      int ordinal = Integer.parseInt(memberName.substring(p.length()));
      return ordinal >= 0 && member(ordinal).equals(memberName) ? ordinal : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  public String pvc(int ordinal) {
    return volumeTemplate + "-" + etcd + "-" + ordinal;
  }

  public String peerService() {
    return etcd + "-peer";
  }

  public String clientService() {
    return etcd + "-client";
  }

  public String configMap() {
    return etcd + "-config";
  }

  public String serviceAccount() {
    return etcd;
  }

  public String role() {
    return "druid.gardener.cloud:etcd:" + etcd;
  }

  public String roleBinding() {
    return role();
  }

  public String podDisruptionBudget() {
    return etcd;
  }

  public String fullSnapshotLease() {
    return etcd + "-full-snap";
  }

  public String deltaSnapshotLease() {
    return etcd + "-delta-snap";
  }

  /** Members renew a lease named like their pod. */
  public String memberLease(int ordinal) {
    return member(ordinal);
  }

  /**
   * The Secret with the agent API's CA bundle, the operator's client certificate and (without
   * {@code spec.backup.tls}) the agents' server certificate, issued by the operator.
   */
  public String agentApiSecret() {
    return etcd + "-agent-api-tls";
  }

  /**
   * The Secret with the peer CA bundle, certificate and key the members are given: a copy the
   * operator advances step by step from the Secrets the spec names (docs/certificates.md).
   */
  public String peerTlsSecret() {
    return etcd + "-peer-tls-in-use";
  }

  /** The stable DNS name of a member: {@code <pod>.<etcd>-peer.<ns>.svc}. */
  public String memberHost(int ordinal) {
    return member(ordinal) + "." + peerService() + "." + namespace + ".svc";
  }
}
