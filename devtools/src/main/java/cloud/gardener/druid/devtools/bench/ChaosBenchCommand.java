package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.cli.shared.GoDurationConverter;
import cloud.gardener.druid.testenv.faults.Fault;
import cloud.gardener.druid.testenv.faults.FaultKind;
import cloud.gardener.druid.testenv.faults.FaultPlan;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code druid bench chaos}: options and output; {@link ChaosRun} does the work. */
@Command(name = "chaos", mixinStandardHelpOptions = true,
    description = {
        "Start a local control plane on loopback, the operator as its own process and the"
            + " 3-member sample Etcd of 'druid local up'; write to it and watch it while one"
            + " seeded fault per round hits it (kills and hangs of etcd, the leader, the agent,"
            + " the operator, kube-apiserver, the leading one of two operator replicas; some"
            + " during a rollout), wait until it healed, print one line per"
            + " round and at the end the checks over the whole history. The same seed replays"
            + " the same faults. Exit code 0 when every check held, 1 when one failed."})
final class ChaosBenchCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--seed", paramLabel = "S",
      description = "Seed of the fault plan (default: a random one, printed).")
  Long seed;

  @Option(names = "--rounds", paramLabel = "N", defaultValue = "10",
      description = "Rounds, one fault each (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--faults", paramLabel = "KINDS", split = ",",
      description = "The fault kinds to draw from (default: all): etcd-kill, agent-kill,"
          + " etcd-pause, leader-pause, agent-pause, operator-kill, apiserver-kill,"
          + " operator-failover (runs two operator replicas).")
  List<String> faults;

  @Option(names = "--heal-timeout", paramLabel = "DURATION", defaultValue = "3m",
      converter = GoDurationConverter.class,
      description = "How long the cluster may take to heal after a fault (default:"
          + " ${DEFAULT-VALUE}).")
  Duration healTimeout;

  @Option(names = "--leader-election", negatable = true, defaultValue = "true",
      fallbackValue = "true",
      description = "Run the operator with leader election, as the chart does (default:"
          + " ${DEFAULT-VALUE}); a killed operator's successor then waits for the lease.")
  boolean leaderElection;

  @Option(names = "--operator-jvm-options", paramLabel = "FLAGS",
      description = "The operator's JVM flags (default: the chart's jvm.options and"
          + " -XX:MaxRAM of its memory limit).")
  String operatorJvmOptions;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Working directory: logs, kubeconfig, volumes; must be new or empty"
          + " (default: a new directory under the temp directory, kept for its logs).")
  Path dir;

  @Override
  public Integer call() throws Exception {
    List<FaultKind> kinds;
    try {
      kinds = faults == null ? List.of(FaultKind.values())
          : faults.stream().map(FaultKind::parse).distinct().toList();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--faults: " + e.getMessage());
    }
    if (kinds.contains(FaultKind.OPERATOR_FAILOVER) && !leaderElection) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--faults operator-failover needs --leader-election (two replicas share one lease)");
    }
    if (rounds < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--rounds must be at least 1");
    }
    long s = seed == null ? ThreadLocalRandom.current().nextLong() : seed;
    List<Fault> plan = FaultPlan.of(s, rounds, kinds, 3);
    List<String> jvm = operatorJvmOptions == null
        ? ChartJvmOptions.fromChart(repoRoot())
        : Arrays.asList(operatorJvmOptions.trim().split("\\s+"));
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter progress = spec.commandLine().getErr();
    out.println("chaos: seed " + s + ", " + rounds + " rounds of " + FaultKind.names(kinds));
    out.flush();
    ChaosRun.Report report = ChaosRun.run(new ChaosRun.Settings(s, plan, jvm, workDir(),
        healTimeout, leaderElection), line -> {
          progress.println("chaos: " + line);
          progress.flush();
        }, line -> {
          out.println(line);
          out.flush();
        });
    report.checks().forEach(c -> out.println(c.line()));
    out.println(report.passed() ? "chaos: every check held (seed " + s + ")"
        : "chaos: a check FAILED; replay with --seed " + s + " --rounds " + rounds
            + (faults == null ? "" : " --faults " + FaultKind.names(kinds)));
    out.flush();
    return report.passed() ? 0 : 1;
  }

  private Path workDir() throws IOException {
    if (dir == null) {
      return Files.createTempDirectory("druid-chaos-");
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
