package cloud.gardener.druid.cli;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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

  static final int EXIT_TIMEOUT = 2;

  @Override
  public Integer call() {
    try (KubernetesClient client = KubeClients.create(kubeconfig)) {
      var resource = client.resources(Etcd.class).inNamespace(namespace).withName(name);
      if (resource.get() == null) {
        throw new UserError("etcd " + namespace + "/" + name + " not found");
      }
      try {
        Etcd done = resource.waitUntilCondition(
            e -> e != null && RolloutCompletion.isComplete(e), timeout.toMillis(),
            TimeUnit.MILLISECONDS);
        System.out.println("etcd " + namespace + "/" + name + ": rollout of generation "
            + done.getMetadata().getGeneration() + " is complete");
        return 0;
      } catch (KubernetesClientTimeoutException e) {
        Etcd last = resource.get();
        System.err.println("druid ctl wait: timed out after " + timeout + "; rollout of "
            + namespace + "/" + name + " is not complete: "
            + (last == null ? "the Etcd is gone" : String.join("; ",
                RolloutCompletion.pendingReasons(last))));
        return EXIT_TIMEOUT;
      }
    }
  }
}
