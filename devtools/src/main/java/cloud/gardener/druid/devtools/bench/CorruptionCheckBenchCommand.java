package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.cli.shared.GoDurationConverter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code druid bench corruption-check}: options and output; {@link CorruptionCheckRun} does
 * the work.
 */
@Command(name = "corruption-check", mixinStandardHelpOptions = true,
    description = {
        "What etcd's corruption checks cost, which every member runs (docs/benchmarks.md):"
            + " for each size, fill a single etcd on loopback with that many MiB of values,"
            + " then restart it with the checks as the agent configures them and once without,"
            + " and print side by side the time to serve (etcd's log: first line to 'now serving'), the initial check (from etcd's log),"
            + " one periodic check (from etcd's log) and etcd's HashKV alone (the baseline:"
            + " what 'etcdctl endpoint hashkv' asks)."})
final class CorruptionCheckBenchCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--sizes", paramLabel = "MIB", split = ",", defaultValue = "256,1024",
      description = "Database sizes to measure, MiB of values (default: ${DEFAULT-VALUE}).")
  List<Integer> sizes;

  @Option(names = "--value-bytes", paramLabel = "BYTES", defaultValue = "32768",
      description = "Bytes of each value (default: ${DEFAULT-VALUE}).")
  int valueBytes;

  @Option(names = "--etcd-version", paramLabel = "MINOR", defaultValue = "3.6",
      description = "etcd minor to run, 3.5, 3.6 or 3.7 (default: ${DEFAULT-VALUE}).")
  String minor;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
      description = "Seed of the values' bytes (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--check-period", paramLabel = "DURATION", defaultValue = "5s",
      converter = GoDurationConverter.class,
      description = "Period of the periodic check while measuring; the first one is timed"
          + " (default: ${DEFAULT-VALUE}).")
  Duration checkPeriod;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Working directory: etcd's data and logs; must be new or empty (default:"
          + " a new directory under the temp directory, removed afterwards).")
  Path dir;

  @Override
  public Integer call() throws Exception {
    if (sizes.stream().anyMatch(s -> s < 1) || valueBytes < 16 || valueBytes > 1 << 20) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--sizes must be at least 1 MiB each and --value-bytes between 16 and 1048576");
    }
    if (!minor.matches("3\\.[567]")) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--etcd-version must be 3.5, 3.6 or 3.7, not " + minor);
    }
    boolean temporary = dir == null;
    Path work = temporary ? Files.createTempDirectory("druid-bench-corruption-") : dir;
    try (var files = Files.exists(work) ? Files.list(work) : null) {
      if (files != null && files.findAny().isPresent()) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--dir must be new or empty: " + work);
      }
    }
    var out = spec.commandLine().getOut();
    BenchLog log = new BenchLog(line -> {
      out.println(line);
      out.flush();
    });
    CorruptionCheckRun run = new CorruptionCheckRun(log, minor, valueBytes, seed, checkPeriod,
        Files.createDirectories(work));
    List<CorruptionCheckRun.Figures> figures = run.measure(sizes);
    log.plain("");
    log.plain(CorruptionCheckRun.Figures.HEADER);
    figures.forEach(f -> log.plain(f.row()));
    log.plain("corruption-check: etcd " + run.etcdVersion() + ", load average "
        + CorruptionCheckRun.loadAverage());
    if (temporary) {
      CorruptionCheckRun.delete(work);
    }
    return 0;
  }
}
