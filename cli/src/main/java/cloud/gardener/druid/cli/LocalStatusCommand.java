package cloud.gardener.druid.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code druid local status}. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show what runs in DIR and the kubeconfig path.")
final class LocalStatusCommand implements Callable<Integer> {

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".druid-local",
      description = "State directory: kubeconfig, logs, pid files (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Override
  public Integer call() {
    throw new UserError("'local status' is not part of this build yet", 3);
  }
}
