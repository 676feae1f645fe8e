package cloud.gardener.druid.agent.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The directory with etcd, etcdctl and etcdutl, from {@code testenv/controlplane/build.sh}
 * (which builds them from the Go module proxy once and prints the cached directory last).
 */
public final class EtcdBinaries {

  private static Path dir;

  private EtcdBinaries() {
  }

  public static synchronized Path dir() {
    if (dir == null) {
      dir = build();
    }
    return dir;
  }

  private static Path build() {
    Path root = Paths.get(System.getProperty("druid.repoRoot", "..")).toAbsolutePath();
    Path script = root.resolve("testenv/controlplane/build.sh");
    try {
      Process p = new ProcessBuilder("bash", script.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(40, TimeUnit.MINUTES) || p.exitValue() != 0) {
        throw new IllegalStateException(script + " failed");
      }
      List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
      Path bin = Paths.get(lines.get(lines.size() - 1).trim());
      if (!Files.isExecutable(bin.resolve("etcd"))) {
        throw new IllegalStateException("no etcd in " + bin);
      }
      return bin;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
