package cloud.gardener.druid.devtools.local;

import cloud.gardener.druid.testenv.process.ProcessGroups;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code druid local down}. */
@Command(name = "down", mixinStandardHelpOptions = true,
    description = "Stop every process that 'druid local up' started in DIR, and nothing else.")
final class LocalDownCommand implements Callable<Integer> {

  private static final Duration UP_EXIT_TIMEOUT = Duration.ofSeconds(60);

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".druid-local",
      description = "State directory: kubeconfig, logs, pid files (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Override
  public Integer call() {
    LocalDirectory state = new LocalDirectory(dir);
    Optional<ProcessLedger.Entry> up = state.running();
    up.ifPresent(this::stopUpProcess);
    List<ProcessLedger.Entry> leftovers = ProcessLedger.read(state.ledgerFile()).stream()
        .filter(ProcessLedger.Entry::isSameLiveProcess)
        .toList();
    for (ProcessLedger.Entry entry : leftovers) {
      ProcessGroups.kill(entry.pid());
      spec.commandLine().getOut().println("killed " + entry.name() + " (pid " + entry.pid() + ")");
    }
    state.release();
    if (up.isEmpty() && leftovers.isEmpty()) {
      spec.commandLine().getOut().println("druid local: nothing runs in " + state.path());
    } else {
      spec.commandLine().getOut().println("druid local: stopped (" + state.path() + ")");
    }
    return 0;
  }

  /** SIGTERM to {@code up}: its shutdown hook stops pods, then the control plane. */
  private void stopUpProcess(ProcessLedger.Entry up) {
    ProcessHandle.of(up.pid()).ifPresent(handle -> {
      handle.destroy();
      try {
        handle.onExit().get(UP_EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (Exception e) {
        handle.destroyForcibly();
      }
    });
  }
}
