package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.RetireSourceMembersConfig;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.GoDurationConverter;
import cloud.gardener.druid.cli.shared.UserError;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code retire-source-members}: after an Etcd joined an existing cluster, a task that removes
 * the source's members from the etcd membership (addition), followed to its end.
 */
@Command(name = "retire-source-members", mixinStandardHelpOptions = true,
    description = "After the Etcd joined an existing cluster (spec.etcd.bootstrapWithExisting"
        + "Cluster), remove that cluster's members from the etcd membership, one at a time,"
        + " after leadership moved to a member of the Etcd: creates an EtcdOpsTask"
        + " (retireSourceMembers) and follows it. The source's processes are not touched"
        + " (docs/existing-cluster.md).",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:every source member left the membership (or the task created, with --no-wait;"
            + " shown, with --dry-run)",
        "1:error", "2:usage error", "3:Etcd not found", "4:timed out following the task",
        "5:the task failed or was rejected (a member of the Etcd is not a ready voter)",
        "6:refused: the Etcd did not join an existing cluster, or has not joined yet"})
final class RetireSourceMembersCommand extends OpsTaskCommand {

  @Option(names = "--task-timeout", paramLabel = "DURATION", defaultValue = "10m",
      converter = GoDurationConverter.class,
      description = "Timeout of the retirement itself, the task's timeoutSeconds (default:"
          + " ${DEFAULT-VALUE}); --timeout bounds the following.")
  Duration taskTimeout;

  @Override
  String operation() {
    return "retire-source-members";
  }

  @Override
  EtcdOpsTaskConfig config(Etcd etcd) {
    String name = etcd.getMetadata().getNamespace() + "/" + etcd.getMetadata().getName();
    if (etcd.getSpec().getEtcd() == null
        || etcd.getSpec().getEtcd().getBootstrapWithExistingCluster() == null) {
      throw new UserError("etcd " + name + " did not join an existing cluster"
          + " (spec.etcd.bootstrapWithExistingCluster): there are no source members",
          ExitCodes.REFUSED);
    }
    if (etcd.getStatus() == null || etcd.getStatus().getBootstrapWithExistingCluster() == null) {
      throw new UserError("etcd " + name + " has not joined the existing cluster yet"
          + " (condition BootstrappedWithExistingCluster is not True)", ExitCodes.REFUSED);
    }
    RetireSourceMembersConfig retire = new RetireSourceMembersConfig();
    retire.setTimeoutSeconds((int) Math.max(1, taskTimeout.toSeconds()));
    EtcdOpsTaskConfig config = new EtcdOpsTaskConfig();
    config.setRetireSourceMembers(retire);
    return config;
  }

  @Override
  List<String> effects(Etcd etcd) {
    List<String> names = etcd.getStatus().getBootstrapWithExistingCluster().getMembers()
        .stream().map(m -> m.getName()).toList();
    return List.of("retireSourceMembers: leadership moves to a member of " + etcd.getMetadata()
        .getName() + ", then " + String.join(", ", names) + " leave the etcd membership one at"
        + " a time; their processes are not touched (etcd stops a removed member itself)");
  }
}
