package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.CertificateRotation;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import cloud.gardener.druid.operator.certificates.CertificateStep;
import cloud.gardener.druid.operator.certificates.RotationPlanner;
import cloud.gardener.druid.operator.certificates.ServedCertificates;
import cloud.gardener.druid.operator.certificates.TlsMaterial;
import cloud.gardener.druid.operator.model.EtcdConfigMapBuilder;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.model.OwnedSecrets;
import cloud.gardener.druid.operator.model.Owners;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.status.VolumeRecorder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Takes the one next step of an Etcd's peer certificates ({@link RotationPlanner}): the Secret
 * the members mount ({@code <etcd>-peer-tls-in-use}) is the operator's copy of the Secrets the
 * spec names, advanced step by step, each step recorded in status.certificates and announced
 * by an event before it is taken. Secrets are read from the API server by name (never from a
 * cache: the step must see its own last write); their contents are never logged.
 */
final class PeerCertificateStep {

  static final String KEY_CA = "ca.crt";
  static final String KEY_CERT = "tls.crt";
  static final String KEY_KEY = "tls.key";

  /** What a step did or waits for; {@code wrote}: it changed the Secret or the status. */
  record Outcome(String what, boolean wrote) {
  }

  private final KubernetesClient client;
  private final VolumeRecorder records;
  private final EventRecorder events;
  private final ServedCertificates served;
  private final Clock clock;

  PeerCertificateStep(KubernetesClient client, VolumeRecorder records, EventRecorder events,
      ServedCertificates served, Clock clock) {
    this.client = client;
    this.records = records;
    this.events = events;
    this.served = served;
    this.clock = clock;
  }

  /**
   * Takes the next step. Empty when the member rollout may take its own step: nothing to do,
   * or the restarts of the step in progress are the rollout's ({@code rolled} false).
   */
  Optional<Outcome> advance(Etcd etcd, ClusterSnapshot s, boolean rolled) {
    TLSConfig tls = etcd.getSpec().getEtcd() == null ? null
        : etcd.getSpec().getEtcd().getPeerUrlTls();
    if (tls == null) {
      return Optional.empty();
    }
    EtcdNames names = EtcdNames.of(etcd);
    Secret existing = secret(etcd, names.peerTlsSecret());
    if (existing != null && !Owners.isControlledBy(existing, etcd)) {
      return Optional.of(new Outcome("the Secret " + names.peerTlsSecret()
          + " exists and is not this Etcd's; the operator writes the members' peer certificates"
          + " there: rename or delete it", false));
    }
    RotationPlanner.Inputs in = new RotationPlanner.Inputs(wanted(etcd, tls), source(tls),
        Optional.ofNullable(existing).flatMap(PeerCertificateStep::material), rolled,
        recorded(etcd));
    CertificateStep step = RotationPlanner.next(in, pem -> served.allServe(s, pem));
    return step.accept(new CertificateStep.Handler<Optional<Outcome>>() {
      public Optional<Outcome> settled(CertificateStep.Settled settled) {
        return Optional.empty();
      }

      public Optional<Outcome> hold(CertificateStep.Hold hold) {
        return rolled ? Optional.of(new Outcome(hold.describe(), false)) : Optional.empty();
      }

      public Optional<Outcome> create(CertificateStep.Create create) {
        write(etcd, null, create.material());
        return Optional.of(new Outcome(create.describe(), true));
      }

      public Optional<Outcome> record(CertificateStep.Record record) {
        PeerCertificateStep.this.record(etcd, record.rotation(), in.recorded());
        return Optional.of(new Outcome(record.describe(), true));
      }

      public Optional<Outcome> give(CertificateStep.Give give) {
        write(etcd, existing, give.material());
        return Optional.of(new Outcome(give.describe(), true));
      }
    });
  }

  private void record(Etcd etcd, CertificateRotation rotation,
      Optional<CertificateRotation> previous) {
    rotation.setLastTransitionTime(clock.instant().toString());
    records.recordCertificates(etcd, rotation);
    boolean completed = CertificateRotation.PHASE_COMPLETED.equals(rotation.getPhase());
    if (!completed) {
      events.normal(etcd, "CertificateRotation", "peer TLS, " + rotation.getMessage()
          + "; trusted CAs " + rotation.getTrustedCAs() + ", served by " + rotation.getServedBy());
    } else if (previous.filter(p -> !rotation.getPhase().equals(p.getPhase())).isPresent()) {
      events.normal(etcd, "CertificateRotationCompleted", "peer TLS: the members trust "
          + rotation.getTrustedCAs() + " and serve a certificate of " + rotation.getServedBy());
    }
  }

  private Optional<CertificateRotation> recorded(Etcd etcd) {
    return Optional.ofNullable(records.latest(etcd).getStatus())
        .map(EtcdStatus::getCertificates).orElse(List.of()).stream()
        .filter(c -> CertificateRotation.TLS_PEER.equals(c.getTls())).findFirst();
  }

  /** The bundle, certificate and key of the Secrets the spec names; empty while one lacks. */
  private Optional<TlsMaterial> wanted(Etcd etcd, TLSConfig tls) {
    Optional<String> bundle = value(secret(etcd, tls.getTlsCASecretRef().getName()),
        EtcdConfigMapBuilder.caKey(tls.getTlsCASecretRef()));
    Secret server = secret(etcd, tls.getServerTLSSecretRef().getName());
    Optional<String> cert = value(server, KEY_CERT);
    Optional<String> key = value(server, KEY_KEY);
    return bundle.isPresent() && cert.isPresent() && key.isPresent()
        ? Optional.of(new TlsMaterial(bundle.get(), cert.get(), key.get())) : Optional.empty();
  }

  private static String source(TLSConfig tls) {
    return "Secrets " + tls.getTlsCASecretRef().getName() + " ("
        + EtcdConfigMapBuilder.caKey(tls.getTlsCASecretRef()) + ") and "
        + tls.getServerTLSSecretRef().getName() + " (tls.crt, tls.key)";
  }

  private static Optional<TlsMaterial> material(Secret secret) {
    Optional<String> bundle = value(secret, KEY_CA);
    Optional<String> cert = value(secret, KEY_CERT);
    Optional<String> key = value(secret, KEY_KEY);
    return bundle.isPresent() && cert.isPresent() && key.isPresent()
        ? Optional.of(new TlsMaterial(bundle.get(), cert.get(), key.get())) : Optional.empty();
  }

  private static Optional<String> value(Secret secret, String key) {
    return Optional.ofNullable(secret).map(Secret::getData).map(d -> d.get(key))
        .map(v -> new String(Base64.getDecoder().decode(v), StandardCharsets.US_ASCII));
  }

  private Secret secret(Etcd etcd, String name) {
    return client.secrets().inNamespace(etcd.getMetadata().getNamespace()).withName(name).get();
  }

  private void write(Etcd etcd, Secret existing, TlsMaterial material) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(KEY_CA, base64(material.caBundle()));
    data.put(KEY_CERT, base64(material.certificate()));
    data.put(KEY_KEY, base64(material.key()));
    Secret desired = OwnedSecrets.desired(etcd, EtcdNames.of(etcd).peerTlsSecret(), existing,
        data);
    if (existing == null) {
      client.resource(desired).create();
    } else {
      client.resource(desired).update(); // optimistic: a concurrent writer makes this retry
    }
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
  }
}
