package cloud.gardener.druid.agent.testing;

import cloud.gardener.druid.agent.store.StoreConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import org.awaitility.Awaitility;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 API server (s3proxy over a filesystem blob store) on a free 127.0.0.1 port,
 * in-process. Writes the store secret files our S3 store reads.
 */
public final class S3ProxyServer implements AutoCloseable {

  public static final String ACCESS_KEY = "druid-access";
  public static final String SECRET_KEY = "druid-secret-key";

  private final S3Proxy proxy;
  private final BlobStoreContext context;
  private final Path secretDir;
  private final Path keyStore;

  public S3ProxyServer(Path workDir) throws Exception {
    this(workDir, 0);
  }

  /** On a given port (0: any free one), e.g. to come back where a stopped server was. */
  public S3ProxyServer(Path workDir, int port) throws Exception {
    this(workDir, port, null);
  }

  /**
   * Serving HTTPS only, with a self-signed certificate for 127.0.0.1 made by the JDK's
   * keytool; {@link #certificatePem()} is what a store secret's trustedCaCert holds.
   */
  public static S3ProxyServer https(Path workDir) throws Exception {
    Path keyStore = workDir.resolve("s3proxy.p12");
    Files.createDirectories(workDir);
    String keytool = Paths.get(System.getProperty("java.home"), "bin", "keytool").toString();
    run(keytool, "-genkeypair", "-keystore", keyStore.toString(), "-storetype", "PKCS12",
        "-storepass", KEYSTORE_PASSWORD, "-alias", "s3proxy", "-keyalg", "RSA", "-keysize",
        "2048", "-validity", "2", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1");
    run(keytool, "-exportcert", "-rfc", "-keystore", keyStore.toString(), "-storepass",
        KEYSTORE_PASSWORD, "-alias", "s3proxy", "-file",
        workDir.resolve("s3proxy.crt").toString());
    return new S3ProxyServer(workDir, 0, keyStore);
  }

  private static final String KEYSTORE_PASSWORD = "druid-test";

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
  }

  private S3ProxyServer(Path workDir, int port, Path keyStore) throws Exception {
    this.keyStore = keyStore;
    Path blobs = Files.createDirectories(workDir.resolve("blobs"));
    Properties properties = new Properties();
    properties.setProperty("jclouds.filesystem.basedir", blobs.toString());
    context = ContextBuilder.newBuilder("filesystem").overrides(properties)
        .build(BlobStoreContext.class);
    S3Proxy.Builder builder = S3Proxy.builder()
        .blobStore(context.getBlobStore())
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY);
    if (keyStore == null) {
      builder.endpoint(URI.create("http://127.0.0.1:" + port));
    } else {
      builder.secureEndpoint(URI.create("https://127.0.0.1:" + port))
          .keyStore(keyStore.toString(), KEYSTORE_PASSWORD);
    }
    proxy = builder.build();
    proxy.start();
    Awaitility.await().atMost(Duration.ofSeconds(30))
        .until(() -> "STARTED".equals(proxy.getState()));
    secretDir = Files.createDirectories(workDir.resolve("secret"));
    Files.writeString(secretDir.resolve("accessKeyID"), ACCESS_KEY);
    Files.writeString(secretDir.resolve("secretAccessKey"), SECRET_KEY);
    Files.writeString(secretDir.resolve("region"), "eu-west-1");
  }

  public URI endpoint() {
    return keyStore == null ? URI.create("http://127.0.0.1:" + proxy.getPort())
        : URI.create("https://127.0.0.1:" + proxy.getSecurePort());
  }

  /** The HTTPS server's certificate (PEM); only for {@link #https}. */
  public String certificatePem() throws java.io.IOException {
    return Files.readString(keyStore.resolveSibling("s3proxy.crt"));
  }

  public Path secretDir() {
    return secretDir;
  }

  public void createBucket(String bucket) {
    context.getBlobStore().createContainerInLocation(null, bucket);
  }

  public StoreConfig storeConfig(String bucket, String prefix) {
    return new StoreConfig(StoreConfig.Provider.S3, bucket, prefix, Optional.of(endpoint()),
        Optional.of(secretDir));
  }

  public void stop() throws Exception {
    proxy.stop();
  }

  @Override
  public void close() throws Exception {
    try {
      proxy.stop();
    } finally {
      context.close();
    }
  }
}
