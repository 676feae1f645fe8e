package cloud.gardener.druid.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code druid ctl wait rollout}: block until the current generation is rolled out. */
@Command(
    name = "wait",
    mixinStandardHelpOptions = true,
    description = {
        "Wait until a rollout is complete. A rollout of generation G is complete exactly "
            + "when status.observedGeneration == G, the conditions AllMembersUpdated, "
            + "AllMembersReady and Ready are True, and status.lastOperation.state == Succeeded.",
        "Exit codes: 0 complete, 1 error, 2 timed out."})
final class CtlWaitCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "WHAT", description = "What to wait for: rollout.")
  What what;

  @Parameters(index = "1", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  @Option(names = {"-n", "--namespace"}, defaultValue = "default",
      description = "Namespace (default: ${DEFAULT-VALUE}).")
  String namespace;

  @Option(names = "--timeout", defaultValue = "PT10M", paramLabel = "DURATION",
      description = "How long to wait, ISO-8601 (e.g. PT5M) (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(names = "--kubeconfig", paramLabel = "FILE", description = "Kubeconfig to use.")
  String kubeconfig;

  enum What { rollout }

  @Override
  public Integer call() {
    throw new UserError("'ctl wait' is not part of this build yet", 3);
  }
}
