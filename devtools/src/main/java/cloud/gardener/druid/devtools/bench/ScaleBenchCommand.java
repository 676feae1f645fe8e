package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.cli.shared.GoDurationConverter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code druid bench scale}: options and output; {@link ScaleRun} does the work. */
@Command(name = "scale", mixinStandardHelpOptions = true,
    description = {
        "Start a local control plane on loopback and the operator as its own process (the"
            + " chart's JVM flags), create N Etcds (most hibernated, some with 1 member, a few"
            + " with 3; members run in the node simulator), and report: time until all are"
            + " reconciled after creation and after an operator restart, the latency of a spec"
            + " change on one Etcd among N, and over a quiet window the API requests/s (from"
            + " kube-apiserver's apiserver_request_total), operator RSS, heap and CPU, and"
            + " kube-apiserver CPU. Everything it starts is stopped on exit or Ctrl-C."})
final class ScaleBenchCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--etcds", paramLabel = "N", defaultValue = "100",
      description = "Etcds in all (default: ${DEFAULT-VALUE}).")
  int etcds;

  @Option(names = "--single", paramLabel = "N", defaultValue = "2",
      description = "Of them, Etcds with 1 running member (default: ${DEFAULT-VALUE}).")
  int single;

  @Option(names = "--triple", paramLabel = "N", defaultValue = "1",
      description = "Of them, Etcds with 3 running members (default: ${DEFAULT-VALUE}).")
  int triple;

  @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "60s",
      converter = GoDurationConverter.class,
      description = "Length of the quiet window measured (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(names = "--settle", paramLabel = "DURATION", defaultValue = "15s",
      converter = GoDurationConverter.class,
      description = "Wait after all are reconciled before the window (default: ${DEFAULT-VALUE}).")
  Duration settle;

  @Option(names = "--spec-changes", paramLabel = "N", defaultValue = "20",
      description = "Spec changes on one hibernated Etcd for the latency (default:"
          + " ${DEFAULT-VALUE}; 0: none).")
  int specChanges;

  @Option(names = "--background", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Measure the window again with the operator stopped: the other clients'"
          + " API requests without it (default: ${DEFAULT-VALUE}; the operator's own are"
          + " counted by its metrics).")
  boolean background;

  @Option(names = "--leader-election", negatable = true, defaultValue = "true",
      fallbackValue = "true",
      description = "Run the operator with leader election, as the chart does (default:"
          + " ${DEFAULT-VALUE}).")
  boolean leaderElection;

  @Option(names = "--operator-jvm-options", paramLabel = "FLAGS",
      description = "The operator's JVM flags (default: the chart's jvm.options and"
          + " -XX:MaxRAM of its memory limit).")
  String operatorJvmOptions;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10m",
      converter = GoDurationConverter.class,
      description = "Limit of each wait (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Working directory: logs, kubeconfig, volumes; must be new or empty"
          + " (default: a new directory under the temp directory, kept for its logs).")
  Path dir;

  @Option(names = "--json", description = "Print the figures as JSON instead of a table.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    FleetPlan plan;
    try {
      plan = new FleetPlan(etcds, single, triple);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (specChanges < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--spec-changes must not be negative");
    }
    List<String> jvm = operatorJvmOptions == null
        ? ChartJvmOptions.fromChart(repoRoot())
        : List.of(operatorJvmOptions.trim().split("\\s+"));
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter progress = spec.commandLine().getErr();
    ScaleRun.Settings settings = new ScaleRun.Settings(plan, jvm, workDir(), duration, settle,
        specChanges, background, leaderElection, timeout);
    ScaleReport report = ScaleRun.run(settings, line -> {
      progress.println("bench: " + line);
      progress.flush();
    });
    if (json) {
      out.println(report.json());
    } else {
      report.printTable(out);
    }
    out.flush();
    return 0;
  }

  private Path workDir() throws IOException {
    if (dir == null) {
      return Files.createTempDirectory("druid-bench-");
    }
    if (Files.isDirectory(dir)) {
      try (var entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new CommandLine.ParameterException(spec.commandLine(),
              "--dir " + dir + " is not empty (a control plane needs a fresh directory)");
        }
      }
    }
    return Files.createDirectories(dir).toAbsolutePath();
  }

  private static Path repoRoot() {
    return Path.of(System.getProperty("druid.repoRoot", ".")).toAbsolutePath().normalize();
  }
}
