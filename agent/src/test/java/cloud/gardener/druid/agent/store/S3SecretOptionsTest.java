package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.testing.S3ProxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3 store secret's optional keys as upstream reads them, against s3proxy on loopback:
 * a JSON credentials file, an HTTPS server trusted through trustedCaCert or
 * insecureSkipVerify, customer-provided encryption keys and web identity settings.
 */
class S3SecretOptionsTest {

  @TempDir
  static Path work;
  private static S3ProxyServer https;

  @BeforeAll
  static void startHttpsS3() throws Exception {
    https = S3ProxyServer.https(work.resolve("https"));
    https.createBucket("backups");
  }

  @AfterAll
  static void stop() throws Exception {
    https.close();
  }

  private static Path secret(String name, String... keysAndValues) throws Exception {
    Path dir = Files.createDirectories(work.resolve(name));
    Files.writeString(dir.resolve("accessKeyID"), S3ProxyServer.ACCESS_KEY);
    Files.writeString(dir.resolve("secretAccessKey"), S3ProxyServer.SECRET_KEY);
    Files.writeString(dir.resolve("region"), "eu-west-1");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      Files.writeString(dir.resolve(keysAndValues[i]), keysAndValues[i + 1]);
    }
    return dir;
  }

  private static SnapshotStore open(Path secret, String prefix) throws Exception {
    return SnapshotStores.open(new StoreConfig(StoreConfig.Provider.S3, "backups", prefix,
        Optional.of(https.endpoint()), Optional.of(secret)));
  }

  private static void roundTrip(SnapshotStore store) throws Exception {
    store.put(SnapshotStoreContract.FULL, out -> out.write("full".getBytes()));
    assertThat(store.list()).containsExactly(SnapshotStoreContract.FULL);
    try (var in = store.open(SnapshotStoreContract.FULL)) {
      assertThat(in.readAllBytes()).isEqualTo("full".getBytes());
    }
  }

  @Test
  void aServerCertificateSignedByTheTrustedCaCertIsAccepted() throws Exception {
    try (SnapshotStore store = open(secret("trusted", "trustedCaCert", https.certificatePem()),
        "trusted")) {
      roundTrip(store);
    }
  }

  @Test
  void anUntrustedServerCertificateIsRefusedWithTheStoreNamed() throws Exception {
    try (SnapshotStore store = open(secret("untrusted"), "untrusted")) {
      assertThatThrownBy(store::list).isInstanceOf(StoreException.class)
          .hasMessageContaining("s3://backups/untrusted/v2/");
    }
  }

  @Test
  void insecureSkipVerifyAcceptsAnyServerCertificate() throws Exception {
    try (SnapshotStore store = open(secret("insecure", "insecureSkipVerify", "true"),
        "insecure")) {
      roundTrip(store);
    }
  }

  @Test
  void aJsonCredentialsFileInTheSecretIsReadInsteadOfTheKeyFiles() throws Exception {
    Path dir = Files.createDirectories(work.resolve("json"));
    Files.writeString(dir.resolve("credentials.json"), "{\"accessKeyID\":\""
        + S3ProxyServer.ACCESS_KEY + "\",\"secretAccessKey\":\"" + S3ProxyServer.SECRET_KEY
        + "\",\"region\":\"eu-west-1\",\"s3ForcePathStyle\":true,\"insecureSkipVerify\":true}");
    try (SnapshotStore store = open(dir, "json")) {
      roundTrip(store);
    }
  }

  @Test
  void customerProvidedKeysAreSentWithEveryRequestAndHalfAKeyIsRefused() throws Exception {
    Path both = secret("sse", "insecureSkipVerify", "true",
        "sseCustomerKey", "0123456789abcdef0123456789abcdef", "sseCustomerAlgorithm", "AES256");
    S3Settings settings = S3Settings.read(Optional.of(both));
    assertThat(settings.sse()).hasValueSatisfying(k -> {
      assertThat(k.algorithm()).isEqualTo("AES256");
      assertThat(k.keyBase64()).isEqualTo("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");
      assertThat(k.toString()).doesNotContain(k.keyBase64());
    });

    Path half = secret("sse-half", "sseCustomerKey", "0123456789abcdef0123456789abcdef");
    assertThatThrownBy(() -> open(half, "half")).hasMessageContaining("sseCustomerAlgorithm")
        .hasMessageNotContaining("0123456789abcdef");
  }

  @Test
  void webIdentityNeedsBothTheRoleAndTheTokenPath() throws Exception {
    Path dir = Files.createDirectories(work.resolve("web-identity"));
    Files.writeString(dir.resolve("roleARN"), "arn:aws:iam::123456789012:role/etcd-backup");
    assertThatThrownBy(() -> S3Settings.read(Optional.of(dir)))
        .hasMessageContaining("roleARN and tokenPath");

    Files.writeString(dir.resolve("tokenPath"), "/var/run/secrets/token");
    S3Settings settings = S3Settings.read(Optional.of(dir));
    assertThat(settings.roleArn()).hasValue("arn:aws:iam::123456789012:role/etcd-backup");
    assertThat(settings.tokenPath()).hasValue("/var/run/secrets/token");
  }

  @Test
  void aSecretWithoutCredentialsIsRefusedInsteadOfFallingBackToTheNodesCredentials()
      throws Exception {
    Path none = Files.createDirectories(work.resolve("no-credentials"));
    Files.writeString(none.resolve("region"), "eu-west-1");
    assertThatThrownBy(() -> open(none, "none")).hasMessageContaining(none.toString())
        .hasMessageContaining("has no credentials")
        .hasMessageContaining("accessKeyID and secretAccessKey, or roleARN and tokenPath");

    Path half = Files.createDirectories(work.resolve("access-key-only"));
    Files.writeString(half.resolve("accessKeyID"), S3ProxyServer.ACCESS_KEY);
    assertThatThrownBy(() -> S3Settings.read(Optional.of(half)))
        .hasMessageContaining("needs both accessKeyID and secretAccessKey")
        .hasMessageNotContaining(S3ProxyServer.ACCESS_KEY);

    assertThat(S3Settings.read(Optional.empty()).accessKeyId())
        .as("a store without secretRef opts into the ambient credentials").isEmpty();
  }
}
