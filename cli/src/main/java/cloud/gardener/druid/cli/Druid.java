package cloud.gardener.druid.cli;

import cloud.gardener.druid.agent.AgentCommand;
import cloud.gardener.druid.cli.bench.BenchCommand;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code druid} command: one jar, one entry point, a subcommand per process role. Its
 * subcommands are in {@link #SUBCOMMANDS}, not in its annotation: picocli builds the model of
 * every command it is given, which costs a member agent's cold start about half a second, so
 * {@link #commandLine(String...)} gives picocli only the command the arguments name.
 */
@Command(
    name = "druid",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
        "etcd-druid for the JVM: a Kubernetes operator for etcd clusters, API-compatible "
            + "with gardener/etcd-druid (druid.gardener.cloud/v1alpha1), and its per-member "
            + "agent."},
    footer = {"", "Run 'druid <command> --help' for the options of a command.",
        "As a kubectl plugin: 'druid plugin install', then 'kubectl druid --help'."})
public final class Druid implements Runnable {

  /**
   * A subcommand of druid: its {@code @Command} class (which names it); {@code readsTheTree}
   * when it works on the whole command tree (help, completion), so it never runs alone.
   */
  record Subcommand(Class<?> type, boolean readsTheTree) {

    String name() {
      return type.getAnnotation(Command.class).name();
    }
  }

  /** druid's subcommands, in the order of its usage. */
  static final List<Subcommand> SUBCOMMANDS = List.of(
      new Subcommand(OperatorCommand.class, false),
      new Subcommand(AgentCommand.class, false),
      new Subcommand(CtlCommand.class, false),
      new Subcommand(LocalCommand.class, false),
      new Subcommand(PluginCommand.class, false),
      new Subcommand(BenchCommand.class, false),
      new Subcommand(CompletionCommand.class, true),
      new Subcommand(CommandLine.HelpCommand.class, true));

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = LogFormat.OPTION, paramLabel = "text|json", scope = ScopeType.INHERIT,
      defaultValue = "${env:DRUID_LOG_FORMAT:-text}",
      description = "Log lines as text or as JSON objects, one a line (default: $DRUID_LOG_FORMAT,"
          + " else text).")
  LogFormat logFormat;

  public static void main(String[] args) {
    LogFormat.configureFrom(args);
    System.exit(Terminal.execute(commandLine(args), args));
  }

  /** The whole command line, every subcommand: for tests and for what reads the tree. */
  public static CommandLine commandLine() {
    return configured(SUBCOMMANDS);
  }

  /**
   * The command line that runs {@code args} as the whole one would: with only the subcommand
   * the first argument names, if it names one that does not read the tree; else the whole.
   * Options before the command (rare) also get the whole, rather than parsing twice.
   */
  static CommandLine commandLine(String... args) {
    Optional<Subcommand> named = named(args);
    return configured(named.isPresent() ? List.of(named.get()) : SUBCOMMANDS);
  }

  /** The subcommand that can run alone and that args name first (plain loops: cold path). */
  static Optional<Subcommand> named(String... args) {
    if (args.length > 0) {
      for (Subcommand sub : SUBCOMMANDS) {
        if (!sub.readsTheTree() && sub.name().equals(args[0])) {
          return Optional.of(sub);
        }
      }
    }
    return Optional.empty();
  }

  private static CommandLine configured(List<Subcommand> subcommands) {
    CommandLine cli = new CommandLine(new Druid());
    for (Subcommand sub : subcommands) {
      cli.addSubcommand(sub.type());
    }
    return cli.setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(new ErrorHandler());
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
