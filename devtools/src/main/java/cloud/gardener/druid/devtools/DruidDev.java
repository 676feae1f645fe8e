package cloud.gardener.druid.devtools;

import cloud.gardener.druid.cli.Druid;
import cloud.gardener.druid.cli.Druid.Subcommand;
import cloud.gardener.druid.devtools.bench.BenchCommand;
import cloud.gardener.druid.devtools.local.LocalCommand;
import java.util.List;
import picocli.CommandLine;

/**
 * The developer jar's {@code druid} ({@code devtools/target/druid-dev.jar}, what
 * {@code ./druid} runs): the product's commands and the developer commands {@code local} (a
 * local control plane with the node simulator) and {@code bench}, which need the test kit
 * (testenv) that the product jar leaves out.
 */
public final class DruidDev {

  /** druid's subcommands with local after ctl and bench after plugin, in the order of usage. */
  public static final List<Subcommand> SUBCOMMANDS = Druid.withSubcommand(
      Druid.withSubcommand(Druid.SUBCOMMANDS, "ctl", new Subcommand(LocalCommand.class,
          false, () -> new LocalCommand(DruidDev.class))),
      "plugin", new Subcommand(BenchCommand.class, false));

  private DruidDev() {
  }

  public static void main(String[] args) {
    Druid.run(SUBCOMMANDS, args);
  }

  /** The whole developer command line: for tests. */
  public static CommandLine commandLine() {
    return Druid.wholeCommandLine(SUBCOMMANDS);
  }

  /** The command line that runs {@code args}, as {@link Druid} builds it. */
  public static CommandLine commandLine(String... args) {
    return Druid.commandLine(SUBCOMMANDS, args);
  }
}
