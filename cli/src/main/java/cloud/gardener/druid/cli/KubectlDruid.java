package cloud.gardener.druid.cli;

import picocli.CommandLine;

/**
 * {@code kubectl druid ...}: the kubectl plugin's entry point, {@code druid ctl} under the name
 * kubectl users type. The {@code kubectl-druid} launcher ({@code druid plugin install}) runs it.
 */
public final class KubectlDruid {

  static final String NAME = "kubectl druid";

  private KubectlDruid() {
  }

  public static void main(String[] args) {
    LogFormat.configureFrom(args);
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, also used by tests. */
  public static CommandLine commandLine() {
    return new CommandLine(new CtlCommand())
        .setCommandName(NAME)
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(new ErrorHandler());
  }
}
