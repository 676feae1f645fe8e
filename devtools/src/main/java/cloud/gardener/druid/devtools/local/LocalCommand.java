package cloud.gardener.druid.devtools.local;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code druid local}: a real Kubernetes control plane and node simulator on this machine. */
@Command(
    name = "local",
    mixinStandardHelpOptions = true,
    description = {
        "Run a real local Kubernetes on loopback: etcd, kube-apiserver and "
            + "kube-controller-manager (built from the Go module proxy and cached), a node "
            + "simulator that runs pods as local processes, the operator and a sample Etcd."},
    subcommands = {LocalUpCommand.class, LocalDownCommand.class, LocalStatusCommand.class})
public final class LocalCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private final Class<?> main;

  /**
   * @param main the main class of the jar that has this command, which {@code local up
   *     --detach} runs again in the background (handed in by the entry point that registers
   *     this command, so that this package does not depend on it)
   */
  public LocalCommand(Class<?> main) {
    this.main = main;
  }

  Class<?> main() {
    return main;
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
