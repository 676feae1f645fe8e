package cloud.gardener.druid.operator.webhook;

import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.tls.PemKeys;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The webhook's own CA and serving certificate, issued by the operator. In a cluster they are
 * kept in a Secret beside the operator's Service, so that every replica behind it serves the
 * same certificate (the first replica issues it; it is issued again 30 days before it
 * expires); on a local control plane they live in memory. Valid for a year.
 */
record WebhookCertificates(X509Certificate ca, Certificates.Issued serving) {

  static final Duration VALIDITY = Duration.ofDays(365);
  static final Duration RENEW_BEFORE = Duration.ofDays(30);

  static WebhookCertificates issue(List<String> serverNames, Clock clock) {
    Instant now = clock.instant();
    Instant notBefore = now.minus(Duration.ofMinutes(5));
    Certificates.Issued ca = Certificates.ca("etcd-druid-webhook-ca", notBefore,
        now.plus(VALIDITY));
    Certificates.Issued serving = Certificates.issue(ca, serverNames.get(0), serverNames,
        Certificates.Use.SERVER, notBefore, now.plus(VALIDITY));
    return new WebhookCertificates(ca.certificate(), serving);
  }

  /** The certificates of the Secret {@code namespace/name}, issued and stored if needed. */
  static WebhookCertificates shared(KubernetesClient client, String namespace, String name,
      List<String> serverNames, Clock clock) {
    var secret = client.secrets().inNamespace(namespace).withName(name);
    Optional<WebhookCertificates> stored = Optional.ofNullable(secret.get()).flatMap(
        s -> read(s, serverNames, clock.instant()));
    if (stored.isPresent()) {
      return stored.get();
    }
    WebhookCertificates issued = issue(serverNames, clock);
    Secret written = new SecretBuilder().withNewMetadata().withName(name)
        .withNamespace(namespace).endMetadata().withType("kubernetes.io/tls")
        .withData(Map.of("ca.crt", base64(PemKeys.pem(issued.ca())),
            "tls.crt", base64(issued.serving().certificatePem()),
            "tls.key", base64(issued.serving().keyPem())))
        .build();
    try {
      client.resource(written).serverSideApply();
      return issued;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      return read(secret.get(), serverNames, clock.instant()).orElseThrow(() -> e);
    }
  }

  private static Optional<WebhookCertificates> read(Secret secret, List<String> names,
      Instant now) {
    Map<String, String> data = secret.getData();
    if (data == null || !data.keySet().containsAll(List.of("ca.crt", "tls.crt", "tls.key"))) {
      return Optional.empty();
    }
    try {
      X509Certificate ca = PemKeys.certificates(decode(data.get("ca.crt")), "ca.crt").get(0);
      X509Certificate cert = PemKeys.certificates(decode(data.get("tls.crt")), "tls.crt").get(0);
      boolean fresh = cert.getNotAfter().toInstant().isAfter(now.plus(RENEW_BEFORE))
          && cert.getSubjectAlternativeNames() != null
          && cert.getSubjectAlternativeNames().stream().map(n -> String.valueOf(n.get(1)))
              .toList().containsAll(names);
      return fresh ? Optional.of(new WebhookCertificates(ca, new Certificates.Issued(cert,
          PemKeys.privateKey(decode(data.get("tls.key")), "tls.key")))) : Optional.empty();
    } catch (GeneralSecurityException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static byte[] decode(String base64) {
    return Base64.getDecoder().decode(base64);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  String caPem() {
    return PemKeys.pem(ca);
  }
}
