package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The CA bundles an Etcd's members trust for client and peer TLS, as one checksum: the client
 * bundle of the Secret the spec names, the peer bundle of the copy the operator gives the
 * members ({@code certificates.PeerCertificates}). etcd reads
 * its certificate and key again at every handshake but its CA bundles only at start
 * ({@code CertificateReloadIT}), so a new leaf under the same CA needs no restart while a
 * changed bundle does: the checksum is an annotation of the member pods and part of their
 * revision, and a pod with another one restarts with the reason "certificate changed".
 *
 * <p>The Etcd of a reconcile carries the checksum of the Secrets as read at its start, as an
 * annotation set in memory only ({@link #withChecksum}); everything that builds member pods
 * from that Etcd takes it from there.
 */
public final class TrustedCas {

  /** On member pods (and, in memory only, on the Etcd of a reconcile). */
  public static final String ANNOTATION = "druid.gardener.cloud/trusted-ca-checksum";

  private TrustedCas() {
  }

  /**
   * The checksum of the CA bundles the spec names, from the Secrets {@code secrets} returns
   * (namespace, name → Secret or null); empty without client and peer TLS. A missing Secret
   * or key counts as an empty bundle: the pods wait for it anyway.
   */
  public static Optional<String> compute(Etcd etcd, BiFunction<String, String, Secret> secrets) {
    var spec = etcd.getSpec().getEtcd();
    if (spec == null || spec.getClientUrlTls() == null && spec.getPeerUrlTls() == null) {
      return Optional.empty();
    }
    Map<String, String> bundles = new LinkedHashMap<>();
    bundles.put("client", bundle(etcd, spec.getClientUrlTls(), secrets));
    bundles.put("peer", spec.getPeerUrlTls() == null ? "" : inUse(etcd, secrets));
    return Optional.of(Revisions.of(bundles));
  }

  private static String bundle(Etcd etcd, TLSConfig tls,
      BiFunction<String, String, Secret> secrets) {
    if (tls == null || tls.getTlsCASecretRef() == null) {
      return "";
    }
    Secret secret = secrets.apply(etcd.getMetadata().getNamespace(),
        tls.getTlsCASecretRef().getName());
    String key = EtcdConfigMapBuilder.caKey(tls.getTlsCASecretRef());
    if (secret == null) {
      return "";
    }
    String data = secret.getData() == null ? null : secret.getData().get(key);
    return data == null ? "" : Revisions.sha256(data); // the API server's canonical base64
  }

  /** The peer bundle of the Secret the operator gives the members (model.EtcdNames). */
  private static String inUse(Etcd etcd, BiFunction<String, String, Secret> secrets) {
    Secret secret = secrets.apply(etcd.getMetadata().getNamespace(),
        EtcdNames.of(etcd).peerTlsSecret());
    String data = secret == null || secret.getData() == null ? null
        : secret.getData().get(MemberLayout.DEFAULT_CA_KEY);
    return data == null ? "" : Revisions.sha256(data);
  }

  /** A copy of {@code etcd} carrying {@code checksum} (in memory; never written). */
  public static Etcd withChecksum(Etcd etcd, Optional<String> checksum) {
    if (checksum.isEmpty()) {
      return etcd;
    }
    Etcd copy = new Etcd();
    copy.setMetadata(new ObjectMetaBuilder(etcd.getMetadata())
        .addToAnnotations(ANNOTATION, checksum.get()).build());
    copy.setSpec(etcd.getSpec());
    copy.setStatus(etcd.getStatus());
    return copy;
  }

  /**
   * True when a pod started with one CA bundle and the spec's is another; not when TLS is
   * turned on (the peer URL change says so) or a pod predates the checksum.
   */
  public static boolean changed(Optional<String> running, Optional<String> desired) {
    return running.isPresent() && desired.isPresent() && !running.equals(desired);
  }

  /** The checksum the Etcd of this reconcile carries. */
  public static Optional<String> of(Etcd etcd) {
    return Optional.ofNullable(etcd.getMetadata().getAnnotations()).map(a -> a.get(ANNOTATION));
  }
}
