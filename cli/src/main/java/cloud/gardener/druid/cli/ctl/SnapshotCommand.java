package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code snapshot}: an on-demand snapshot task, followed to its end. */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
    description = "Take a full or delta snapshot now: creates an EtcdOpsTask"
        + " (onDemandSnapshot) and follows it.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:snapshot taken (or the task created, with --no-wait; shown, with --dry-run)",
        "1:error", "2:usage error", "3:Etcd not found", "4:timed out following the task",
        "5:the task failed or was rejected", "6:no backup store"})
final class SnapshotCommand extends OpsTaskCommand {

  enum Type { full, delta }

  @Option(names = "--type", paramLabel = "full|delta", defaultValue = "full",
      description = "Kind of snapshot (default: ${DEFAULT-VALUE}).")
  Type type;

  @Override
  String operation() {
    return "snapshot";
  }

  @Override
  EtcdOpsTaskConfig config(Etcd etcd) {
    requireStore(etcd, "snapshots go to the store");
    OnDemandSnapshotConfig snapshot = new OnDemandSnapshotConfig();
    snapshot.setType(type == Type.full ? OnDemandSnapshotConfig.SnapshotType.FULL
        : OnDemandSnapshotConfig.SnapshotType.DELTA);
    EtcdOpsTaskConfig config = new EtcdOpsTaskConfig();
    config.setOnDemandSnapshot(snapshot);
    return config;
  }

  @Override
  List<String> effects(Etcd etcd) {
    return List.of("onDemandSnapshot " + type + ": the leader's agent writes a " + type
        + " snapshot to the backup store (prefix " + etcd.getSpec().getBackup().getStore()
            .getPrefix() + ")");
  }
}
