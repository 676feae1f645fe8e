package cloud.gardener.druid.testenv.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * An image from an OCI archive, run by a real OCI runtime ({@code runc}): the archive is
 * unpacked once (with {@code umoci}) into a read-only root filesystem shared by every
 * container of the image, and each container gets a runc bundle ({@link OciBundle}) with the
 * pod's volumes bind-mounted at their mount paths, the pod's environment and the image's (or
 * the pod's) user, in the host network namespace so the pod keeps its 127.x address.
 */
public final class OciImage implements ImageRuntime {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String repository;
  private final Supplier<Path> archive;
  private final Path unpackRoot;
  private final Path hostsFile;
  private Unpacked unpacked;

  /** The unpacked image: its root filesystem and its config (entrypoint, env, user, workdir). */
  record Unpacked(Path rootfs, List<String> entrypoint, List<String> cmd, List<String> env,
      String user, String workingDir) {
  }

  /**
   * @param repository the image repository it runs (any tag or digest)
   * @param archive    the OCI archive, resolved on first use (it may be built then)
   * @param unpackRoot where unpacked images are cached, by manifest digest
   * @param hostsFile  the node's hosts file (pod DNS), bind-mounted as the container's
   *                   {@code /etc/hosts}
   */
  public OciImage(String repository, Supplier<Path> archive, Path unpackRoot, Path hostsFile) {
    this.repository = ImageRuntime.repository(repository);
    this.archive = archive;
    this.unpackRoot = unpackRoot;
    this.hostsFile = hostsFile;
  }

  @Override
  public boolean handles(String image) {
    return ImageRuntime.repository(image).equals(repository);
  }

  /** Not used: containers of this runtime start through {@link #bundle}. */
  @Override
  public List<String> commandLine(List<String> command, List<String> args) {
    throw new UnsupportedOperationException("OCI images run through a runc bundle");
  }

  @Override
  public List<String> execCommandLine(List<String> command) {
    throw new UnsupportedOperationException(
        "exec probes are not supported for OCI images here; use httpGet or tcpSocket");
  }

  /** Writes the runc bundle of one container and returns how to run and release it. */
  OciBundle bundle(OciBundle.Request request) {
    return OciBundle.write(image(), hostsFile, request);
  }

  synchronized Unpacked image() {
    if (unpacked == null) {
      unpacked = unpack(archive.get());
    }
    return unpacked;
  }

  private Unpacked unpack(Path archivePath) {
    try {
      Path layout = Files.createTempDirectory("druid-oci-layout");
      try {
        run(List.of("tar", "-xf", archivePath.toString(), "-C", layout.toString()));
        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        JsonNode entry = index.get("manifests").get(0);
        String manifestDigest = entry.get("digest").asText();
        String tag = entry.path("annotations").path("org.opencontainers.image.ref.name").asText();
        JsonNode manifest = JSON.readTree(blob(layout, manifestDigest).toFile());
        JsonNode config = JSON.readTree(blob(layout, manifest.get("config").get("digest")
            .asText()).toFile()).path("config");
        Path rootfs = unpackRoot.resolve(manifestDigest.replace(':', '-'));
        if (!Files.isDirectory(rootfs)) {
          Files.createDirectories(unpackRoot);
          Path tmp = Files.createTempDirectory(unpackRoot, ".unpack-");
          run(List.of("umoci", "raw", "unpack", "--image", layout + ":" + tag,
              tmp.resolve("rootfs").toString()));
          try {
            Files.move(tmp.resolve("rootfs"), rootfs, StandardCopyOption.ATOMIC_MOVE);
          } catch (IOException raced) {
            if (!Files.isDirectory(rootfs)) {
              throw raced;
            }
          }
          deleteTree(tmp);
        }
        return new Unpacked(rootfs, strings(config.path("Entrypoint")),
            strings(config.path("Cmd")), strings(config.path("Env")),
            config.path("User").asText(""), config.path("WorkingDir").asText("/"));
      } finally {
        deleteTree(layout);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack OCI archive " + archivePath, e);
    }
  }

  private static Path blob(Path layout, String digest) {
    return layout.resolve("blobs").resolve(digest.replace(':', '/'));
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  static void run(List<String> argv) {
    try {
      Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes());
      if (p.waitFor() != 0) {
        throw new IllegalStateException(String.join(" ", argv) + " failed: " + output.strip());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + argv.get(0)
          + " (needed for OCI images; apt-get install runc umoci)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + argv, e);
    }
  }

  static void deleteTree(Path dir) {
    run(List.of("rm", "-rf", dir.toString()));
  }
}
