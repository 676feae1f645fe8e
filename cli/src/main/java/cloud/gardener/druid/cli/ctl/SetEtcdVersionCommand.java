package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.GoDurationConverter;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code set-etcd-version}: upgrade or downgrade an Etcd's etcd by one minor, then follow the
 * rollout, printing each member's etcd version and the cluster version as they change.
 */
@Command(name = "set-etcd-version", mixinStandardHelpOptions = true,
    description = "Set spec.etcd.version (3.5, 3.6 or 3.7; one minor at a time) and follow the"
        + " rollout: a full snapshot, the members one by one, the leader last, done when etcd's"
        + " cluster version is the new minor (docs/etcd-versions.md).",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:the change is rolled out (or shown, with --dry-run; or requested, with --no-follow)",
        "1:error", "2:usage error", "3:Etcd not found", "4:timed out following the rollout",
        "6:refused: not supported, already set, or it would skip a minor"})
final class SetEtcdVersionCommand extends EtcdEditCommand {

  @Parameters(index = "1", paramLabel = "VERSION", description = "The etcd minor: 3.5, 3.6 or 3.7.")
  String version;

  @Option(names = "--follow", negatable = true, defaultValue = "true",
      description = "Follow the rollout until it is complete (default: ${DEFAULT-VALUE}).")
  boolean follow;

  @Option(names = "--timeout", defaultValue = "30m", paramLabel = "DURATION",
      converter = GoDurationConverter.class,
      description = "How long to follow the rollout (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  @Override
  Plan plan(Etcd etcd) {
    return EtcdPlans.setEtcdVersion(etcd, version);
  }

  @Override
  int afterEdit(Resource<Etcd> resource, Etcd edited, PrintWriter out) {
    if (!follow) {
      return ExitCodes.OK;
    }
    long generation = edited.getMetadata().getGeneration();
    Map<String, String> shown = new HashMap<>();
    try {
      Etcd done = resource.waitUntilCondition(etcd -> {
        if (etcd == null) {
          return true;
        }
        printChanges(etcd, shown, out);
        return etcd.getMetadata().getGeneration() == generation
            && RolloutCompletion.isComplete(etcd);
      }, timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (done == null) {
        spec.commandLine().getErr().println("etcd " + name + " was deleted while following");
        return ExitCodes.NOT_FOUND;
      }
      out.println("rollout complete: every member runs etcd " + shown.values().stream()
          .filter(v -> !v.startsWith("cluster ")).distinct().sorted().toList()
          + ", cluster version " + done.getStatus().getEtcdClusterVersion());
      return ExitCodes.OK;
    } catch (KubernetesClientTimeoutException e) {
      spec.commandLine().getErr().println("timed out after " + GoDurationConverter.format(timeout)
          + " following the rollout of " + name + "; it goes on: kubectl druid wait rollout "
          + name);
      return ExitCodes.TIMEOUT;
    }
  }

  /** One line per member whose etcd version changed, and one when the cluster version did. */
  private static void printChanges(Etcd etcd, Map<String, String> shown, PrintWriter out) {
    if (etcd.getStatus() == null) {
      return;
    }
    if (etcd.getStatus().getMembers() != null) {
      for (EtcdMemberStatus m : etcd.getStatus().getMembers()) {
        if (m.getEtcdVersion() != null
            && !Objects.equals(shown.put(m.getName(), m.getEtcdVersion()), m.getEtcdVersion())) {
          out.println(m.getName() + ": etcd " + m.getEtcdVersion());
        }
      }
    }
    String cluster = etcd.getStatus().getEtcdClusterVersion();
    if (cluster != null && !Objects.equals(shown.put("", "cluster " + cluster),
        "cluster " + cluster)) {
      out.println("cluster version: " + cluster);
    }
    out.flush();
  }
}
