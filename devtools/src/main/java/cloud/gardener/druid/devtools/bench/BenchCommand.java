package cloud.gardener.druid.devtools.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code druid bench}: benchmarks that run on the local control plane. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmarks of the operator on a local control plane on loopback.",
    subcommands = {ScaleBenchCommand.class, ChaosBenchCommand.class,
        CorruptionCheckBenchCommand.class})
public final class BenchCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
