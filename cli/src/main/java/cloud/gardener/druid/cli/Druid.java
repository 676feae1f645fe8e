package cloud.gardener.druid.cli;

import cloud.gardener.druid.agent.AgentCommand;
import cloud.gardener.druid.cli.ctl.CtlCommand;
import cloud.gardener.druid.cli.shared.ErrorHandler;
import cloud.gardener.druid.cli.shared.LogFormat;
import cloud.gardener.druid.cli.shared.Terminal;
import cloud.gardener.druid.cli.shared.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code druid} command: one jar, one entry point, a subcommand per process role. Its
 * subcommands are in {@link #SUBCOMMANDS}, not in its annotation: picocli builds the model of
 * every command it is given, which costs a member agent's cold start about half a second, so
 * {@link #commandLine(String...)} gives picocli only the command the arguments name. The
 * developer commands ({@code local}, {@code bench}) are not in this jar: the developer jar
 * (module devtools, run by {@code ./druid}) adds them through {@link #run(List, String[])}.
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
   * when it works on the whole command tree (help, completion), so it never runs alone;
   * {@code factory}, when not null, makes the command (one that takes what its registrant
   * hands it), else picocli does.
   */
  public record Subcommand(Class<?> type, boolean readsTheTree, Supplier<?> factory) {

    public Subcommand(Class<?> type, boolean readsTheTree) {
      this(type, readsTheTree, null);
    }

    String name() {
      return type.getAnnotation(Command.class).name();
    }

    /** What picocli's addSubcommand takes: the command made by the factory, or the class. */
    Object command() {
      return factory == null ? type : factory.get();
    }
  }

  /** druid's subcommands, in the order of its usage. */
  public static final List<Subcommand> SUBCOMMANDS = List.of(
      new Subcommand(OperatorCommand.class, false),
      new Subcommand(AgentCommand.class, false),
      new Subcommand(CtlCommand.class, false),
      new Subcommand(PluginCommand.class, false),
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
    run(SUBCOMMANDS, args);
  }

  /** Runs {@code args} as druid with these subcommands; exits with its exit code. */
  public static void run(List<Subcommand> subcommands, String[] args) {
    LogFormat.configureFrom(args);
    System.exit(Terminal.execute(commandLine(subcommands, args), args));
  }

  /** The product's subcommands, with {@code added} right after the one named {@code after}. */
  public static List<Subcommand> withSubcommand(List<Subcommand> subcommands, String after,
      Subcommand added) {
    List<Subcommand> all = new ArrayList<>(subcommands);
    int index = all.stream().map(Subcommand::name).toList().indexOf(after);
    if (index < 0) {
      throw new IllegalArgumentException("no subcommand " + after);
    }
    all.add(index + 1, added);
    return List.copyOf(all);
  }

  /** The whole command line, every subcommand: for tests and for what reads the tree. */
  public static CommandLine commandLine() {
    return wholeCommandLine(SUBCOMMANDS);
  }

  /** The whole command line with these subcommands. */
  public static CommandLine wholeCommandLine(List<Subcommand> subcommands) {
    return configured(subcommands);
  }

  /**
   * The command line that runs {@code args} as the whole one would: with only the subcommand
   * the first argument names, if it names one that does not read the tree; else the whole.
   * Options before the command (rare) also get the whole, rather than parsing twice.
   */
  static CommandLine commandLine(String... args) {
    return commandLine(SUBCOMMANDS, args);
  }

  /** {@link #commandLine(String...)} with these subcommands. */
  public static CommandLine commandLine(List<Subcommand> subcommands, String... args) {
    Optional<Subcommand> named = named(subcommands, args);
    return configured(named.isPresent() ? List.of(named.get()) : subcommands);
  }

  /** The subcommand that can run alone and that args name first (plain loops: cold path). */
  static Optional<Subcommand> named(List<Subcommand> subcommands, String... args) {
    if (args.length > 0) {
      for (Subcommand sub : subcommands) {
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
      cli.addSubcommand(sub.command());
    }
    return cli.setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(new ErrorHandler());
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
