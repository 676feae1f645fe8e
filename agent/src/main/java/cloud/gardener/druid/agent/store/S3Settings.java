package cloud.gardener.druid.agent.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.SdkHttpConfigurationOption;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsWebIdentityTokenFileCredentialsProvider;
import software.amazon.awssdk.utils.AttributeMap;

/**
 * The S3 store secret's keys, read as upstream reads them: one file per key, or all of them in
 * a JSON file ({@code *.json}) in the secret. Keys: {@code accessKeyID} + {@code
 * secretAccessKey}, or {@code roleARN} + {@code tokenPath} (web identity), {@code region},
 * {@code endpoint} (deprecated, {@code --store-endpoint-override} wins), {@code
 * s3ForcePathStyle}, {@code insecureSkipVerify}, {@code trustedCaCert} (PEM), {@code
 * sseCustomerKey} + {@code sseCustomerAlgorithm}, {@code requestChecksumCalculation},
 * {@code responseChecksumValidation}. Values never appear in messages.
 */
record S3Settings(
    Optional<String> accessKeyId, Optional<String> secretAccessKey, Optional<String> roleArn,
    Optional<String> tokenPath, Optional<String> region, Optional<URI> endpoint,
    Optional<Boolean> forcePathStyle, boolean insecureSkipVerify, Optional<String> trustedCaCert,
    Optional<SseCustomerKey> sse, Optional<String> requestChecksumCalculation,
    Optional<String> responseChecksumValidation) {

  /** A customer-provided encryption key (SSE-C), as the request headers carry it. */
  record SseCustomerKey(String algorithm, String keyBase64, String keyMd5Base64) {

    /** {@code key} as the secret holds it: the raw key (32 characters for AES256). */
    static SseCustomerKey of(String algorithm, String key) {
      byte[] raw = key.getBytes(StandardCharsets.UTF_8);
      try {
        return new SseCustomerKey(algorithm, Base64.getEncoder().encodeToString(raw),
            Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(raw)));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public String toString() {
      return "SseCustomerKey[" + algorithm + "]";
    }
  }

  /**
   * Reads the secret. Without a secret directory (a store without {@code secretRef}) the
   * pod's default AWS credentials apply; a secret without credentials is refused.
   */
  static S3Settings read(Optional<Path> dir) throws IOException {
    Optional<Path> json = jsonFile(dir);
    Keys keys = json.isPresent() ? new JsonKeys(json.get()) : new FileKeys(new StoreSecret(dir));
    Optional<String> sseKey = keys.text("sseCustomerKey");
    Optional<String> sseAlgorithm = keys.text("sseCustomerAlgorithm");
    if (sseKey.isPresent() != sseAlgorithm.isPresent()) {
      throw new IOException("the S3 store secret needs both sseCustomerKey and "
          + "sseCustomerAlgorithm for customer-provided encryption keys, or neither");
    }
    Optional<String> roleArn = keys.text("roleARN");
    Optional<String> tokenPath = keys.text("tokenPath");
    if (roleArn.isPresent() != tokenPath.isPresent()) {
      throw new IOException("the S3 store secret needs both roleARN and tokenPath for web "
          + "identity credentials, or neither");
    }
    Optional<String> accessKey = keys.text("accessKeyID");
    Optional<String> secretKey = keys.text("secretAccessKey");
    if (accessKey.isPresent() != secretKey.isPresent()) {
      throw new IOException("the S3 store secret " + where(dir, json) + " needs both "
          + "accessKeyID and secretAccessKey, or neither");
    }
    if (dir.isPresent() && accessKey.isEmpty() && roleArn.isEmpty()) {
      // the node's ambient credentials only when the store names no secret at all
      throw new IOException("the S3 store secret " + where(dir, json) + " has no credentials:"
          + " it needs accessKeyID and secretAccessKey, or roleARN and tokenPath (the node's"
          + " ambient credentials are used only for a store without secretRef)");
    }
    return new S3Settings(accessKey, secretKey, roleArn,
        tokenPath, keys.text("region"), keys.text("endpoint").map(URI::create),
        keys.flag("s3ForcePathStyle"), keys.flag("insecureSkipVerify").orElse(false),
        keys.text("trustedCaCert"),
        sseKey.map(k -> SseCustomerKey.of(sseAlgorithm.get(), k)),
        keys.text("requestChecksumCalculation"), keys.text("responseChecksumValidation"));
  }

  private static String where(Optional<Path> dir, Optional<Path> json) {
    return json.or(() -> dir).map(Path::toString).orElse("");
  }

  private static Optional<Path> jsonFile(Optional<Path> dir) throws IOException {
    if (dir.isEmpty() || !Files.isDirectory(dir.get())) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(dir.get())) {
      return files.filter(f -> f.getFileName().toString().endsWith(".json"))
          .filter(Files::isRegularFile).sorted().findFirst();
    }
  }

  S3Client client(StoreConfig config) throws IOException {
    Optional<URI> target = config.endpointOverride().or(this::endpoint);
    S3ClientBuilder builder = S3Client.builder()
        .region(Region.of(region.filter(r -> !r.isEmpty()).orElse("us-east-1")))
        .credentialsProvider(credentials())
        .httpClient(httpClient())
        .requestChecksumCalculation(requestChecksumCalculation
            .map(v -> checksum(v, "requestChecksumCalculation"))
            .map(v -> v ? RequestChecksumCalculation.WHEN_SUPPORTED
                : RequestChecksumCalculation.WHEN_REQUIRED)
            // S3-compatible servers often lack the SDK's newer default checksums
            .orElse(RequestChecksumCalculation.WHEN_REQUIRED))
        .responseChecksumValidation(responseChecksumValidation
            .map(v -> checksum(v, "responseChecksumValidation"))
            .map(v -> v ? ResponseChecksumValidation.WHEN_SUPPORTED
                : ResponseChecksumValidation.WHEN_REQUIRED)
            .orElse(ResponseChecksumValidation.WHEN_REQUIRED));
    target.ifPresent(builder::endpointOverride);
    // an S3-compatible server at an endpoint is addressed by path unless the secret says not
    builder.forcePathStyle(forcePathStyle.orElse(target.isPresent()));
    return builder.build();
  }

  /** {@code when_supported} is true, {@code when_required} false, as upstream. */
  private static boolean checksum(String value, String key) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "when_supported" -> true;
      case "when_required" -> false;
      default -> throw new IllegalArgumentException("the S3 store secret's key " + key
          + " must be when_supported or when_required");
    };
  }

  private AwsCredentialsProvider credentials() {
    if (accessKeyId.isPresent() && secretAccessKey.isPresent()) {
      return StaticCredentialsProvider.create(
          AwsBasicCredentials.create(accessKeyId.get(), secretAccessKey.get()));
    }
    if (roleArn.isPresent()) {
      StsClient sts = StsClient.builder()
          .region(Region.of(region.filter(r -> !r.isEmpty()).orElse("us-east-1")))
          .credentialsProvider(software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider
              .create())
          .build();
      return StsWebIdentityTokenFileCredentialsProvider.builder().stsClient(sts)
          .roleArn(roleArn.get()).webIdentityTokenFile(Paths.get(tokenPath.get()))
          .roleSessionName("druid-agent").asyncCredentialUpdateEnabled(false).build();
    }
    return DefaultCredentialsProvider.builder().build();
  }

  private software.amazon.awssdk.http.SdkHttpClient httpClient() throws IOException {
    Apache5HttpClient.Builder http = Apache5HttpClient.builder();
    if (trustedCaCert.isPresent()) {
      TrustManager[] trust = trustManagers(trustedCaCert.get());
      http.tlsTrustManagersProvider(() -> trust);
    }
    if (insecureSkipVerify) {
      return http.buildWithDefaults(AttributeMap.builder()
          .put(SdkHttpConfigurationOption.TRUST_ALL_CERTIFICATES, true).build());
    }
    return http.build();
  }

  private static TrustManager[] trustManagers(String pem) throws IOException {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(
          new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
        store.setCertificateEntry("ca-" + i++, cert);
      }
      if (i == 0) {
        throw new IOException("the S3 store secret's trustedCaCert holds no certificate");
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers();
    } catch (java.security.GeneralSecurityException e) {
      throw new IOException("the S3 store secret's trustedCaCert is not a PEM certificate", e);
    }
  }

  /** Where the keys come from. */
  private interface Keys {
    Optional<String> text(String key) throws IOException;

    Optional<Boolean> flag(String key) throws IOException;
  }

  private record FileKeys(StoreSecret secret) implements Keys {
    @Override
    public Optional<String> text(String key) throws IOException {
      return secret.value(key);
    }

    @Override
    public Optional<Boolean> flag(String key) throws IOException {
      return secret.flag(key);
    }
  }

  private static final class JsonKeys implements Keys {
    private final JsonNode json;
    private final String file;

    JsonKeys(Path file) throws IOException {
      this.file = file.getFileName().toString();
      try {
        this.json = new ObjectMapper().readTree(file.toFile());
      } catch (IOException e) {
        throw new IOException("the S3 store secret's " + this.file + " is not JSON", e);
      }
    }

    @Override
    public Optional<String> text(String key) {
      JsonNode v = json.get(key);
      return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText().trim());
    }

    @Override
    public Optional<Boolean> flag(String key) throws IOException {
      JsonNode v = json.get(key);
      if (v == null || v.isNull()) {
        return Optional.empty();
      }
      if (!v.isBoolean()) {
        throw new IOException("the S3 store secret's " + file + " key " + key
            + " must be true or false");
      }
      return Optional.of(v.booleanValue());
    }
  }
}
