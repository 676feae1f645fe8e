package cloud.gardener.druid.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code druid local up}. */
@Command(name = "up", mixinStandardHelpOptions = true,
    description = "Start the control plane, node simulator, operator and a sample 3-member"
        + " Etcd; print the kubeconfig path.")
final class LocalUpCommand implements Callable<Integer> {

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".druid-local",
      description = "State directory: kubeconfig, logs, pid files (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Option(names = "--detach",
      description = "Return once everything is up; stop it with 'druid local down'.")
  boolean detach;
  @Override
  public Integer call() {
    throw new UserError("'local up' is not part of this build yet", 3);
  }
}
