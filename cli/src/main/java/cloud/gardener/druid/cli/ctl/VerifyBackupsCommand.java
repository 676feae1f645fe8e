package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.VerifyBackupsConfig;
import cloud.gardener.druid.cli.shared.UserError;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code verify-backups}: a restore drill task (addition), followed to its end. */
@Command(name = "verify-backups", mixinStandardHelpOptions = true,
    description = "Run a restore drill now: creates an EtcdOpsTask (verifyBackups) whose Job"
        + " restores the newest full snapshot and its deltas into temporary etcds and compares"
        + " them with the hashes recorded when they were written; follows it"
        + " (docs/backup-verification.md).",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:the backups were verified, or nothing could be proven (or the task created, with"
            + " --no-wait; shown, with --dry-run)",
        "1:error", "2:usage error", "3:Etcd not found", "4:timed out following the task",
        "5:a backup is missing, corrupt or restores other content (the task failed), or the"
            + " task was rejected"})
final class VerifyBackupsCommand extends OpsTaskCommand {

  @Override
  String operation() {
    return "verify-backups";
  }

  @Override
  EtcdOpsTaskConfig config(Etcd etcd) {
    if (etcd.getSpec().getBackup() == null || etcd.getSpec().getBackup().getStore() == null) {
      throw new UserError("Etcd " + etcd.getMetadata().getName() + " has no backup store"
          + " (spec.backup.store): there is nothing to verify");
    }
    EtcdOpsTaskConfig config = new EtcdOpsTaskConfig();
    config.setVerifyBackups(new VerifyBackupsConfig());
    return config;
  }

  @Override
  List<String> effects(Etcd etcd) {
    return List.of("verifyBackups: a Job restores the newest full snapshot and its deltas into"
        + " temporary etcds (never the members) and compares them with the recorded hashes",
        "the result goes to the Etcd's condition BackupVerified");
  }
}
