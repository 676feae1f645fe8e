package cloud.gardener.druid.testenv.emulators;

import cloud.gardener.druid.testenv.controlplane.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * fake-gcs-server (a Google Cloud Storage emulator, built from the Go module proxy by
 * {@code testenv/emulators/fake-gcs-server/build.sh}) on a free 127.0.0.1 port, keeping objects
 * in memory. Writes a store secret as upstream's carries it ({@code serviceaccount.json}); the
 * store talks to an {@code http://} endpoint without credentials, as upstream does.
 */
public final class FakeGcsServer implements AutoCloseable {

  public static final String PROJECT = "druid-test";

  private final EmulatorProcess process;
  private final int port;
  private final Path secretDir;

  public FakeGcsServer(Path workDir) throws IOException {
    Path bin = EmulatorProcess.install("fake-gcs-server/build.sh").resolve("fake-gcs-server");
    port = FreePorts.next();
    String url = "http://127.0.0.1:" + port;
    process = EmulatorProcess.start(List.of(bin.toString(), "-scheme", "http",
        "-host", "127.0.0.1", "-port", String.valueOf(port), "-backend", "memory",
        "-external-url", url, "-public-host", "127.0.0.1:" + port, "-log-level", "warn"),
        EmulatorProcess.logFile("fake-gcs-server"), port);
    secretDir = Files.createDirectories(workDir.resolve("gcs-secret"));
    secret().forEach((key, value) -> write(secretDir.resolve(key), value));
  }

  private static void write(Path file, String value) {
    try {
      Files.writeString(file, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** As upstream's flag and secret key take it: {@code http://host:port/storage/v1/}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port + "/storage/v1/");
  }

  /** The keys of a store secret for this emulator, as upstream's GCS secret carries them. */
  public Map<String, String> secret() {
    return Map.of("serviceaccount.json",
        "{\"type\":\"service_account\",\"project_id\":\"" + PROJECT + "\"}");
  }

  /** Creates a bucket through the JSON API. */
  public void createBucket(String bucket) throws IOException, InterruptedException {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/storage/v1/b?project=" + PROJECT))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + bucket + "\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("cannot create bucket " + bucket + ": " + response.statusCode()
          + " " + response.body());
    }
  }

  /** The {@link #secret()} as one file per key. */
  public Path secretDir() {
    return secretDir;
  }

  @Override
  public void close() {
    process.close();
  }
}
