package cloud.gardener.druid.testenv.helm;

import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.process.BuildScript;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The helm CLI built by {@code testenv/helm/build.sh} (cached under
 * {@code ~/.cache/etcd-druid/bin/helm-<version>}), run with its own config and cache dirs.
 */
public final class Helm {

  private static Path binary;
  private final Path home;
  private final Path kubeconfig;

  /** The result of one helm run. */
  public record Result(int exitCode, String output) {

    public Result orThrow() {
      if (exitCode != 0) {
        throw new IllegalStateException("helm failed (exit " + exitCode + "):\n" + output);
      }
      return this;
    }
  }

  /** @param kubeconfig the cluster, or null for commands that need none (lint, template) */
  public Helm(Path home, Path kubeconfig) {
    this.home = home;
    this.kubeconfig = kubeconfig;
  }

  /** The helm binary; builds it on first use in this JVM. */
  public static synchronized Path binary() {
    if (binary == null) {
      binary = BuildScript.run(ControlPlaneBinaries.repoRoot().resolve("testenv/helm/build.sh"),
          List.of(), System.err::println);
    }
    return binary;
  }

  public Result run(String... args) {
    List<String> argv = new ArrayList<>();
    argv.add(binary().toString());
    argv.addAll(List.of(args));
    if (kubeconfig != null) {
      argv.add("--kubeconfig=" + kubeconfig);
    }
    try {
      Files.createDirectories(home);
      ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true)
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      builder.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
      builder.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
      builder.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
      Process p = builder.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(15, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("helm " + String.join(" ", args) + " did not exit");
      }
      return new Result(p.exitValue(), out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The chart directory of this checkout. */
  public static Path chart() {
    return ControlPlaneBinaries.repoRoot().resolve("charts/etcd-druid");
  }
}
