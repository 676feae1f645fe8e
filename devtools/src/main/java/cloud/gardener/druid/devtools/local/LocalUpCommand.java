package cloud.gardener.druid.devtools.local;

import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.cli.shared.UserError;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code druid local up}. */
@Command(name = "up", mixinStandardHelpOptions = true,
    description = "Start the control plane, node simulator, operator and a sample 3-member"
        + " Etcd; print the kubeconfig path.")
final class LocalUpCommand implements Callable<Integer> {

  private static final Duration DETACHED_START_TIMEOUT = Duration.ofMinutes(30);

  @CommandLine.ParentCommand
  LocalCommand parent;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".druid-local",
      description = "State directory: kubeconfig, logs, pid files (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Option(names = "--detach",
      description = "Return once everything is up; stop it with 'druid local down'.")
  boolean detach;

  @Option(names = "--images",
      description = "Run the pods of our image from the OCI image (images/build.sh; needs"
          + " mmdebstrap, runc and umoci) instead of the jar; the image is built once and cached.")
  boolean images;

  @Option(names = "--etcd-version", paramLabel = "MINOR", defaultValue = "3.6",
      description = "The etcd minor of the sample Etcd: 3.5, 3.6 or 3.7 (default:"
          + " ${DEFAULT-VALUE}); built from the Go module proxy on first use.")
  String etcdVersion;

  @Override
  public Integer call() throws Exception {
    if (EtcdRelease.of(etcdVersion).filter(r -> r.minor().equals(etcdVersion)).isEmpty()) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--etcd-version="
          + etcdVersion + ": choose one of " + EtcdRelease.MINORS);
    }
    LocalDirectory state = new LocalDirectory(dir);
    return detach ? startDetached(state) : runInForeground(state);
  }

  private int runInForeground(LocalDirectory state) throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    state.claim();
    long started = System.nanoTime();
    LocalStack stack;
    try {
      stack = LocalStack.start(state, images, etcdVersion, line -> {
        out.println(line);
        out.flush();
      });
    } catch (RuntimeException e) {
      state.release();
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stack.close();
      state.release();
      stopped.countDown();
    }, "druid-local-down"));
    StringWriter summary = new StringWriter();
    stack.printSummary(new PrintWriter(summary, true));
    out.printf("druid local: up in %.1fs (%s)%n%s", (System.nanoTime() - started) / 1e9,
        state.path(), summary);
    out.println("Stop with Ctrl-C or 'druid local down --dir " + state.path() + "'.");
    out.flush();
    state.markReady(summary.toString());
    stopped.await(); // until SIGINT/SIGTERM runs the shutdown hook
    return 0;
  }

  /** Re-runs {@code local up} (without --detach) in a new session, output to up.log. */
  private int startDetached(LocalDirectory state) throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    state.running().ifPresent(e -> {
      throw new UserError("druid local is already running in " + state.path() + " (pid "
          + e.pid() + ")");
    });
    Files.createDirectories(state.path());
    Files.deleteIfExists(state.readyFile());
    List<String> command = new ArrayList<>(List.of("setsid",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path")));
    passThroughProperties(command);
    command.addAll(List.of(parent.main().getName(), "local", "up", "--dir",
        state.path().toString()));
    if (images) {
      command.add("--images");
    }
    command.add("--etcd-version=" + etcdVersion);
    Process child = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.to(state.upLog().toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .start();
    long deadline = System.nanoTime() + DETACHED_START_TIMEOUT.toNanos();
    int shown = 0;
    while (!Files.exists(state.readyFile())) {
      shown = showProgress(state.upLog(), shown, out);
      if (!child.isAlive()) {
        throw new UserError("druid local up failed (exit " + child.exitValue() + "):\n"
            + tail(state.upLog()));
      }
      if (System.nanoTime() > deadline) {
        child.destroy();
        throw new UserError("druid local up did not get ready in " + DETACHED_START_TIMEOUT
            + "; see " + state.upLog());
      }
      Thread.sleep(200); // polling the child's ready file
    }
    out.println("druid local: up in the background (pid " + child.pid() + ", log "
        + state.upLog() + ")");
    out.print(Files.readString(state.readyFile()));
    out.println("Stop with 'druid local down --dir " + state.path() + "'.");
    return 0;
  }

  /** Prints the child's new build progress lines ("druid: …") from line {@code shown} on. */
  private static int showProgress(Path log, int shown, PrintWriter out) {
    List<String> lines;
    try {
      lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
    } catch (IOException partlyWritten) {
      return shown; // e.g. a line cut inside a multi-byte character: read it next time
    }
    for (String line : lines.subList(Math.min(shown, lines.size()), lines.size())) {
      if (line.startsWith("druid: ")) {
        out.println(line);
      }
    }
    out.flush();
    return Math.max(shown, lines.size());
  }

  private static void passThroughProperties(List<String> command) {
    for (String name : List.of("druid.repoRoot", "druid.binDir", "druid.hostsFile",
        "druid.image")) {
      String value = System.getProperty(name);
      if (value != null) {
        command.add("-D" + name + "=" + value);
      }
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
