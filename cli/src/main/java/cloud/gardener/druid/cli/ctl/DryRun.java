package cloud.gardener.druid.cli.ctl;

import picocli.CommandLine.Option;

/**
 * kubectl's {@code --dry-run}: {@code client} (also a bare {@code --dry-run}) only prints what
 * would be done; {@code server} sends the change with {@code dryRun=All}, so the API server
 * validates it without storing it.
 */
final class DryRun {

  enum Mode { none, client, server }

  @Option(names = "--dry-run", arity = "0..1", paramLabel = "MODE", fallbackValue = "client",
      defaultValue = "none",
      description = "Only show what would be done: client (the default of a bare --dry-run),"
          + " or server (validated by the API server, not stored); none does it"
          + " (default: ${DEFAULT-VALUE}).")
  Mode mode = Mode.none;

  boolean client() {
    return mode == Mode.client;
  }

  boolean server() {
    return mode == Mode.server;
  }

  /** The line that ends a dry run's output. */
  String notice() {
    return mode == Mode.server ? "(server dry run: validated by the API server, nothing stored)"
        : "(dry run: nothing changed)";
  }
}
