package cloud.gardener.druid.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The product as a person runs it: the built jar ({@code cli/target/druid.jar}, what
 * {@code ./druid} runs once built) and the {@code kubectl druid} plugin that
 * {@code druid plugin install} writes, run by kubectl, each a process of its own in
 * {@code workDir} with {@code KUBECONFIG} set; their stdout, stderr and exit code.
 */
record DruidProcess(Path jar, Path pluginDir, Path workDir, Path kubeconfig) {

  static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** What a person sees: the exit code and both streams; and how long it took. */
  record Result(int code, String out, String err, Duration took) {

    /** stdout, then stderr, as a terminal shows them when the command writes one then the other. */
    String terminal() {
      return out + err;
    }
  }

  /** The built jar, with the plugin installed from it into {@code workDir/bin}. */
  static DruidProcess install(Path workDir, Path kubeconfig) {
    Path jar = DocsCommandsTest.repoRoot().resolve("cli/target/druid.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: the package phase builds it");
    }
    DruidProcess druid = new DruidProcess(jar, workDir.resolve("bin"), workDir, kubeconfig);
    Result installed = druid.druid("plugin", "install", "--dir", druid.pluginDir().toString());
    if (installed.code() != 0) {
      throw new IllegalStateException("plugin install failed: " + installed);
    }
    return druid;
  }

  /** {@code druid ARGS}: {@code java -jar druid.jar ARGS}. */
  Result druid(String... args) {
    List<String> command = new ArrayList<>(List.of(java(), "-jar", jar.toString()));
    command.addAll(List.of(args));
    return run(command);
  }

  /** {@code kubectl druid ARGS}, through kubectl's plugin lookup on PATH. */
  Result kubectlDruid(String... args) {
    List<String> command = new ArrayList<>(List.of("kubectl", "druid"));
    command.addAll(List.of(args));
    return run(command);
  }

  /** A line of a shell as the docs write it: {@code kubectl druid ...} or {@code druid ...}. */
  Result shell(List<String> words) {
    if (words.size() > 1 && words.get(0).equals("kubectl") && words.get(1).equals("druid")) {
      return kubectlDruid(words.subList(2, words.size()).toArray(String[]::new));
    }
    return druid(words.subList(1, words.size()).toArray(String[]::new));
  }

  private Result run(List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
    Map<String, String> env = builder.environment();
    env.put("KUBECONFIG", kubeconfig.toString());
    env.put("PATH", pluginDir + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.remove("DRUID_LOG_FORMAT");
    env.remove("DRUID_DEBUG");
    long start = System.nanoTime();
    try {
      Process p = builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
          .start();
      CompletableFuture<String> out = read(p.getInputStream());
      CompletableFuture<String> err = read(p.getErrorStream());
      if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(command + " did not end within " + TIMEOUT);
      }
      return new Result(p.exitValue(), out.join(), err.join(),
          Duration.ofNanos(System.nanoTime() - start));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static CompletableFuture<String> read(InputStream stream) {
    return CompletableFuture.supplyAsync(() -> {
      try (stream) {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
