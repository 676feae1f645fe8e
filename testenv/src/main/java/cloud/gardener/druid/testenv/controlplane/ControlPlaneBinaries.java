package cloud.gardener.druid.testenv.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The kube-apiserver, kube-controller-manager, etcd, etcdctl and etcdutl binaries, built (or
 * found in the cache) by {@code testenv/controlplane/build.sh}. Located once per JVM.
 */
public final class ControlPlaneBinaries {

  static final String BUILD_SCRIPT = "testenv/controlplane/build.sh";
  private static volatile Path cached;

  private ControlPlaneBinaries() {
  }

  /** The directory holding the binaries; runs the build script on first use in this JVM. */
  public static synchronized Path directory() {
    if (cached == null) {
      String override = System.getProperty("druid.binDir", System.getenv("DRUID_BIN_DIR"));
      cached = override != null && !override.isBlank() ? Path.of(override) : build(repoRoot());
    }
    return cached;
  }

  public static Path etcd() {
    return directory().resolve("etcd");
  }

  /**
   * The checkout root: system property {@code druid.repoRoot} (set by surefire and failsafe),
   * else the nearest directory above the working directory that holds the build script.
   */
  public static Path repoRoot() {
    String property = System.getProperty("druid.repoRoot");
    if (property != null && !property.isBlank()) {
      return Path.of(property).toAbsolutePath().normalize();
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(BUILD_SCRIPT))) {
        return dir;
      }
    }
    throw new IllegalStateException("cannot find " + BUILD_SCRIPT + " above "
        + Path.of("").toAbsolutePath() + "; set -Ddruid.repoRoot=<checkout> or"
        + " -Ddruid.binDir=<directory with kube-apiserver and etcd>");
  }

  private static Path build(Path repoRoot) {
    try {
      Process build = new ProcessBuilder("bash", repoRoot.resolve(BUILD_SCRIPT).toString())
          .directory(repoRoot.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .start();
      CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(build, true));
      List<String> stdout = readAll(build, false).lines().toList();
      int exit = build.waitFor();
      if (exit != 0 || stdout.isEmpty()) {
        throw new IllegalStateException("building the local control plane failed (" + BUILD_SCRIPT
            + ", exit " + exit + "): " + lastErrorLine(stderr.join()));
      }
      Path dir = Path.of(stdout.get(stdout.size() - 1).trim());
      if (!Files.isExecutable(dir.resolve("kube-apiserver"))) {
        throw new IllegalStateException(BUILD_SCRIPT + " printed " + dir
            + " but it holds no kube-apiserver");
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + BUILD_SCRIPT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building the control plane", e);
    }
  }

  private static String readAll(Process process, boolean errors) {
    try {
      byte[] bytes = (errors ? process.getErrorStream() : process.getInputStream()).readAllBytes();
      String text = new String(bytes, StandardCharsets.UTF_8);
      if (errors && !text.isBlank()) {
        System.err.print(text); // the script's progress of a cold build is worth seeing
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String lastErrorLine(String stderr) {
    List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
    if (lines.isEmpty()) {
      return "no error output";
    }
    return lines.stream().filter(l -> l.startsWith("druid:")).reduce((a, b) -> b)
        .orElse(lines.get(lines.size() - 1));
  }
}
