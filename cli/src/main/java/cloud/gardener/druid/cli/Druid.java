package cloud.gardener.druid.cli;

import cloud.gardener.druid.agent.AgentCommand;
import cloud.gardener.druid.cli.bench.BenchCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code druid} command: one jar, one entry point, a subcommand per process role. */
@Command(
    name = "druid",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
        "etcd-druid for the JVM: a Kubernetes operator for etcd clusters, API-compatible "
            + "with gardener/etcd-druid (druid.gardener.cloud/v1alpha1), and its per-member "
            + "agent."},
    subcommands = {
        OperatorCommand.class,
        AgentCommand.class,
        CtlCommand.class,
        LocalCommand.class,
        PluginCommand.class,
        BenchCommand.class,
        CompletionCommand.class,
        CommandLine.HelpCommand.class},
    footer = {"", "Run 'druid <command> --help' for the options of a command.",
        "As a kubectl plugin: 'druid plugin install', then 'kubectl druid --help'."})
public final class Druid implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = LogFormat.OPTION, paramLabel = "text|json", scope = ScopeType.INHERIT,
      defaultValue = "${env:DRUID_LOG_FORMAT:-text}",
      description = "Log lines as text or as JSON objects, one a line (default: $DRUID_LOG_FORMAT,"
          + " else text).")
  LogFormat logFormat;

  public static void main(String[] args) {
    LogFormat.configureFrom(args);
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, also used by tests. */
  public static CommandLine commandLine() {
    return new CommandLine(new Druid())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(new ErrorHandler());
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
