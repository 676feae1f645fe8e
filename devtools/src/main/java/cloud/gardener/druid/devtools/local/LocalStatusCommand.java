package cloud.gardener.druid.devtools.local;

import cloud.gardener.druid.testenv.process.ProcessLedger;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code druid local status}: exit 0 while running, 3 when not. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show what runs in DIR and the kubeconfig path (exit 3 when nothing runs).")
final class LocalStatusCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".druid-local",
      description = "State directory: kubeconfig, logs, pid files (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Override
  public Integer call() throws Exception {
    LocalDirectory state = new LocalDirectory(dir);
    PrintWriter out = spec.commandLine().getOut();
    Optional<ProcessLedger.Entry> up = state.running();
    if (up.isEmpty()) {
      out.println("druid local: not running in " + state.path());
      return 3;
    }
    out.println("druid local: " + (Files.exists(state.readyFile()) ? "up" : "starting")
        + " (pid " + up.get().pid() + ", " + state.path() + ")");
    out.println("  kubeconfig:  " + state.kubeconfig());
    for (ProcessLedger.Entry entry : ProcessLedger.read(state.ledgerFile())) {
      out.println("  process:     " + entry.name() + " (pid " + entry.pid() + ", "
          + (entry.isSameLiveProcess() ? "running" : "gone") + ")");
    }
    return 0;
  }
}
