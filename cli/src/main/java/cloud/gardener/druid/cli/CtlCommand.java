package cloud.gardener.druid.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code druid ctl}: inspect and operate Etcd clusters through the Kubernetes API. */
@Command(
    name = "ctl",
    mixinStandardHelpOptions = true,
    description = "Inspect and operate Etcd clusters through the Kubernetes API.",
    subcommands = {CtlStatusCommand.class, CtlWaitCommand.class, CtlProbeCommand.class})
final class CtlCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
