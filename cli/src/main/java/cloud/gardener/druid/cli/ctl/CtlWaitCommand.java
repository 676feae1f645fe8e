package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.GoDurationConverter;
import cloud.gardener.druid.cli.shared.UserError;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code wait rollout}: block until the current generation is rolled out, printing progress. */
@Command(
    name = "wait",
    mixinStandardHelpOptions = true,
    description = {
        "Wait until a rollout is complete, printing each change of what it still waits for. A"
            + " rollout of generation G is complete exactly when status.observedGeneration =="
            + " G, the conditions AllMembersUpdated, AllMembersReady and Ready are True, and"
            + " status.lastOperation.state == Succeeded (docs/rollout-contract.md)."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the rollout is complete", "1:error", "2:usage error",
        "3:Etcd not found (or deleted while waiting)", "4:timed out"})
final class CtlWaitCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Parameters(index = "0", paramLabel = "rollout", description = "What to wait for: rollout.")
  What what;

  @Parameters(index = "1", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  @Option(names = "--timeout", defaultValue = "10m", paramLabel = "DURATION",
      converter = GoDurationConverter.class,
      description = "How long to wait, e.g. 90s, 9m, 1h30m (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(names = {"-q", "--quiet"}, description = "Print only the result, not the progress.")
  boolean quiet;

  enum What { rollout }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    String namespace = target.namespace();
    String etcdName = namespace + "/" + name;
    try (KubernetesClient client = target.client()) {
      var resource = client.resources(Etcd.class).inNamespace(namespace).withName(name);
      Etcds.get(resource, namespace, name);
      AtomicReference<List<String>> shown = new AtomicReference<>();
      try {
        Etcd done = resource.waitUntilCondition(etcd -> {
          if (etcd == null) {
            return true;
          }
          List<String> pending = RolloutCompletion.pendingReasons(etcd);
          if (!quiet && !pending.isEmpty() && !pending.equals(shown.getAndSet(pending))) {
            out.println("generation " + etcd.getMetadata().getGeneration() + ": waiting for "
                + String.join("; ", pending));
            out.flush();
          }
          return pending.isEmpty();
        }, timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (done == null) {
          throw new UserError("etcd " + etcdName + " was deleted while waiting",
              ExitCodes.NOT_FOUND);
        }
        out.println("etcd " + etcdName + ": rollout of generation "
            + done.getMetadata().getGeneration() + " is complete");
        return ExitCodes.OK;
      } catch (KubernetesClientTimeoutException e) {
        Etcd last = resource.get();
        spec.commandLine().getErr().println("timed out after "
            + GoDurationConverter.format(timeout) + "; rollout of " + etcdName
            + " is not complete: " + (last == null ? "the Etcd is gone"
                : String.join("; ", RolloutCompletion.pendingReasons(last))));
        return ExitCodes.TIMEOUT;
      }
    }
  }
}
