package cloud.gardener.druid.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.tls.TlsFiles;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateExpiryTest {

  @TempDir
  Path dir;

  @Test
  void showsTheEarliestExpiryOfEachFileAndFollowsARenewedFile() throws Exception {
    Path cert = certificate("member", 10);
    Path ca = dir.resolve("bundle.crt");
    // a CA bundle: the one expiring first is the one that matters
    Files.write(ca, (Files.readString(certificate("ca-new", 400))
        + Files.readString(certificate("ca-old", 30))).getBytes(StandardCharsets.UTF_8));
    CertificateExpiry expiry = CertificateExpiry.of(Optional.of(new TlsFiles(ca, cert,
        dir.resolve("tls.key"))), Optional.empty(), Optional.of(new TlsFiles(null, cert,
        dir.resolve("tls.key"))));

    PrometheusScrape scrape = PrometheusScrape.parse(expiry.scrape());
    assertThat(scrape.types()).containsEntry(CertificateExpiry.NAME, "gauge");
    assertThat(scrape.samples(CertificateExpiry.NAME)).hasSize(3);
    assertDaysLeft(scrape, "client", "tls.crt", 10);
    assertDaysLeft(scrape, "client", "ca.crt", 30);
    assertDaysLeft(scrape, "agent-api", "tls.crt", 10);

    Files.copy(certificate("member-renewed", 90), cert,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertDaysLeft(PrometheusScrape.parse(expiry.scrape()), "client", "tls.crt", 90);
  }

  @Test
  void anUnreadableFileHasNoSeriesAndNoTlsNoFamily() throws Exception {
    Path garbage = Files.writeString(dir.resolve("garbage.crt"), "not a certificate");
    CertificateExpiry expiry = CertificateExpiry.of(Optional.empty(), Optional.of(
        new TlsFiles(dir.resolve("missing.crt"), garbage, dir.resolve("tls.key"))),
        Optional.empty());
    assertThat(PrometheusScrape.parse(expiry.scrape()).samples(CertificateExpiry.NAME)).isEmpty();
    assertThat(CertificateExpiry.of(Optional.empty(), Optional.empty(), Optional.empty())
        .scrape()).isEmpty();
  }

  private static void assertDaysLeft(PrometheusScrape scrape, String usage, String file,
      int days) {
    double expected = Instant.now().plus(Duration.ofDays(days)).getEpochSecond();
    assertThat(scrape.value(CertificateExpiry.NAME, Map.of("usage", usage, "file", file)))
        .as(usage + "/" + file).hasValueSatisfying(v ->
            assertThat(v).isBetween(expected - 600, expected + 600));
  }

  /** A self-signed certificate valid for that many days, by openssl. */
  private Path certificate(String name, int days) throws Exception {
    Path cert = dir.resolve(name + ".crt");
    Process p = new ProcessBuilder(List.of("openssl", "req", "-x509", "-newkey", "ec",
        "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
        dir.resolve("tls.key").toString(), "-out", cert.toString(), "-days",
        Integer.toString(days), "-subj", "/CN=" + name)).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    return cert;
  }
}
