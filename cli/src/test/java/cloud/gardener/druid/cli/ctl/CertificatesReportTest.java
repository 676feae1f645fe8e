package cloud.gardener.druid.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.tls.Certificates.Issued;
import cloud.gardener.druid.api.tls.Certificates.Use;
import cloud.gardener.druid.api.v1alpha1.CertificateRotation;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CertificatesReportTest {

  static final Instant NOW = Instant.parse("2026-12-05T03:00:00Z");
  static final Issued OLD = Certificates.ca("old-ca", NOW.minus(Duration.ofDays(300)),
      NOW.plus(Duration.ofDays(65)));
  static final Issued NEW = Certificates.ca("new-ca", NOW.minus(Duration.ofDays(1)),
      NOW.plus(Duration.ofDays(365)));

  @Test
  void showsTheStepTheOperatorRecordedOrNothingWithoutARecord() {
    assertThat(CertificatesReport.recorded(null)).isEmpty();
    String text = CertificatesReport.recorded(List.of(new CertificateRotation("peer",
        CertificateRotation.PHASE_SERVING_NEW, List.of("CN=old-ca (sha256 1)", "CN=new-ca (sha256 2)"),
        "CN=new-ca (sha256 2)", "step 2 of 3: the members serve the certificate of the new CA",
        "2026-12-05T03:00:00Z")));
    assertThat(text).contains("peer: ServingNew since 2026-12-05T03:00:00Z: step 2 of 3")
        .contains("trusted CAs: [CN=old-ca (sha256 1), CN=new-ca (sha256 2)]")
        .contains("served by: CN=new-ca (sha256 2)");
  }

  @Test
  void listsEveryCertificateWithIssuerSansAndExpiry() {
    Issued leaf = Certificates.issue(OLD, "etcd-server", List.of("e-client.ns.svc", "127.0.0.1"),
        Use.SERVER, NOW.minus(Duration.ofDays(10)), NOW.plus(Duration.ofHours(5)));
    Issued expired = Certificates.issue(OLD, "agent", List.of(), Use.CLIENT,
        NOW.minus(Duration.ofDays(10)), NOW.minus(Duration.ofMinutes(1)));
    String text = CertificatesReport.render(List.of(
        new CertificatesReport.Entry("client", "e-ca", "ca.crt",
            CertificatesReport.parse(pem(OLD, NEW))),
        new CertificatesReport.Entry("client", "e-server", "tls.crt", List.of(leaf.certificate())),
        new CertificatesReport.Entry("agent", "e-agent", "client.crt",
            List.of(expired.certificate())),
        new CertificatesReport.Entry("agent", "e-agent", "ca.crt", List.of())), List.of(), NOW);

    assertThat(text.lines()).hasSize(6);
    assertThat(text).contains("CN=old-ca", "CN=new-ca", "365d")
        .contains("e-client.ns.svc,127.0.0.1").contains("5h").contains("EXPIRED")
        .contains("(missing or not PEM)");
  }

  @Test
  void namesTheStepOfACaRotation() {
    X509Certificate oldLeaf = leaf(OLD);
    X509Certificate newLeaf = leaf(NEW);
    List<X509Certificate> one = List.of(OLD.certificate());
    List<X509Certificate> both = List.of(OLD.certificate(), NEW.certificate());

    assertThat(step(one, oldLeaf, 3)).endsWith("no rotation in progress");
    assertThat(step(both, oldLeaf, 1)).contains("1 of 3 members started with it")
        .endsWith("the members are rolled to the bundle");
    assertThat(step(both, oldLeaf, 3)).contains("step 1 of 3 done").contains("CN=new-ca");
    assertThat(step(both, newLeaf, 3)).contains("step 2 of 3 done");
    assertThat(step(List.of(NEW.certificate()), oldLeaf, 3)).contains("MISMATCH")
        .contains("CN=old-ca");
  }

  private static String step(List<X509Certificate> bundle, X509Certificate served, int onBundle) {
    return CertificatesReport.step(new CertificatesReport.Endpoint("peer", bundle,
        Optional.of(served), onBundle, 3));
  }

  private static X509Certificate leaf(Issued ca) {
    return Certificates.issue(ca, "peer", List.of("*.e-peer.ns.svc"), Use.PEER,
        NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(30))).certificate();
  }

  private static byte[] pem(Issued... cas) {
    StringBuilder s = new StringBuilder();
    for (Issued ca : cas) {
      s.append(ca.certificatePem());
    }
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }
}
