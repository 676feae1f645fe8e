package cloud.gardener.druid.api.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Keys as openssl writes them ({@code src/test/resources/pem/generate.sh}): each one is read
 * and signs what its certificate's public key verifies.
 */
class PemKeysTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "rsa-pkcs1.key, rsa-pkcs1.crt, BEGIN RSA PRIVATE KEY",
      "rsa-pkcs8.key, rsa-pkcs1.crt, BEGIN PRIVATE KEY",
      "ec-sec1.key, ec-sec1.crt, BEGIN EC PRIVATE KEY",
      "ec-pkcs8.key, ec-sec1.crt, BEGIN PRIVATE KEY",
      "ed25519-pkcs8.key, ed25519-pkcs8.crt, BEGIN PRIVATE KEY"})
  void readsKeysOfEveryKindOpensslWrites(String keyFile, String certFile, String header)
      throws Exception {
    byte[] pem = resource(keyFile);
    assertThat(new String(pem, StandardCharsets.US_ASCII)).contains(header);
    PrivateKey key = PemKeys.privateKey(pem, keyFile);
    X509Certificate cert = PemKeys.certificates(resource(certFile), certFile).get(0);
    assertThat(signsFor(key, cert)).isTrue();
  }

  @Test
  void refusesAnEncryptedKeyNamingTheSourceButNotTheContent() throws Exception {
    byte[] pem = resource("rsa-encrypted.key");
    assertThatThrownBy(() -> PemKeys.privateKey(pem, "secret ns/x key tls.key"))
        .isInstanceOf(GeneralSecurityException.class)
        .hasMessageContaining("secret ns/x key tls.key").hasMessageContaining("encrypted")
        .hasMessageNotContaining(new String(pem, StandardCharsets.US_ASCII).lines()
            .skip(1).findFirst().orElseThrow());
  }

  @Test
  void refusesACertificateWhereAKeyIsExpected() throws Exception {
    assertThatThrownBy(() -> PemKeys.privateKey(resource("rsa-pkcs1.crt"), "tls.key"))
        .isInstanceOf(GeneralSecurityException.class).hasMessageStartingWith("tls.key");
    assertThatThrownBy(() -> PemKeys.privateKey("junk".getBytes(StandardCharsets.UTF_8), "k"))
        .isInstanceOf(GeneralSecurityException.class).hasMessageContaining("no PEM private key");
  }

  @Test
  void issuedCertificatesRoundTripThroughPem() throws Exception {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Certificates.Issued ca = Certificates.ca("test-ca", now, now.plus(1, ChronoUnit.DAYS));
    Certificates.Issued leaf = Certificates.issue(ca, "etcd-druid-operator", List.of(),
        Certificates.Use.CLIENT, now, now.plus(1, ChronoUnit.HOURS));
    X509Certificate cert = PemKeys.certificates(leaf.certificatePem()
        .getBytes(StandardCharsets.US_ASCII), "leaf").get(0);
    cert.verify(ca.certificate().getPublicKey());
    assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=etcd-druid-operator");
    assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    PrivateKey key = PemKeys.privateKey(leaf.keyPem().getBytes(StandardCharsets.US_ASCII), "k");
    assertThat(signsFor(key, cert)).isTrue();
  }

  private static boolean signsFor(PrivateKey key, X509Certificate cert) throws Exception {
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      default -> key.getAlgorithm();
    };
    byte[] data = "druid".getBytes(StandardCharsets.UTF_8);
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(data);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(cert.getPublicKey());
    verifier.update(data);
    return verifier.verify(signature);
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = PemKeysTest.class.getResourceAsStream("/pem/" + name)) {
      return in.readAllBytes();
    }
  }
}
