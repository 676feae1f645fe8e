package cloud.gardener.druid.agent.testing;

import cloud.gardener.druid.agent.config.StoreConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import org.awaitility.Awaitility;
import java.time.Duration;
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

  public S3ProxyServer(Path workDir) throws Exception {
    this(workDir, 0);
  }

  /** On a given port (0: any free one), e.g. to come back where a stopped server was. */
  public S3ProxyServer(Path workDir, int port) throws Exception {
    Path blobs = Files.createDirectories(workDir.resolve("blobs"));
    Properties properties = new Properties();
    properties.setProperty("jclouds.filesystem.basedir", blobs.toString());
    context = ContextBuilder.newBuilder("filesystem").overrides(properties)
        .build(BlobStoreContext.class);
    proxy = S3Proxy.builder()
        .blobStore(context.getBlobStore())
        .endpoint(URI.create("http://127.0.0.1:" + port))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
        .build();
    proxy.start();
    Awaitility.await().atMost(Duration.ofSeconds(30))
        .until(() -> "STARTED".equals(proxy.getState()));
    secretDir = Files.createDirectories(workDir.resolve("secret"));
    Files.writeString(secretDir.resolve("accessKeyID"), ACCESS_KEY);
    Files.writeString(secretDir.resolve("secretAccessKey"), SECRET_KEY);
    Files.writeString(secretDir.resolve("region"), "eu-west-1");
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + proxy.getPort());
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
