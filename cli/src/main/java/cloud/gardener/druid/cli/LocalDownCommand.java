package cloud.gardener.druid.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code druid local down}. */
@Command(name = "down", mixinStandardHelpOptions = true,
    description = "Stop every process that 'druid local up' started in DIR, and nothing else.")
final class LocalDownCommand implements Callable<Integer> {

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".druid-local",
      description = "State directory: kubeconfig, logs, pid files (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Override
  public Integer call() {
    throw new UserError("'local down' is not part of this build yet", 3);
  }
}
