package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.ReplaceMemberVolumeConfig;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code replace-member-volume}: a replaceMemberVolume task, followed to its end. */
@Command(name = "replace-member-volume", mixinStandardHelpOptions = true,
    description = "Replace the volume of one member (e.g. a corrupted disk): creates an"
        + " EtcdOpsTask (replaceMemberVolume) and follows it.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:the member is back on a new volume (or the task created, with --no-wait; shown,"
            + " with --dry-run)",
        "1:error", "2:usage error", "3:Etcd or member not found",
        "4:timed out following the task", "5:the task failed or was rejected"})
final class ReplaceMemberVolumeCommand extends OpsTaskCommand {

  @Parameters(index = "1", paramLabel = "MEMBER",
      description = "The member (its pod name), e.g. etcd-main-1.")
  String member;

  @Override
  String operation() {
    return "replace-volume";
  }

  @Override
  EtcdOpsTaskConfig config(Etcd etcd) {
    Members.requireMember(etcd, member);
    ReplaceMemberVolumeConfig replace = new ReplaceMemberVolumeConfig();
    replace.setMemberName(member);
    EtcdOpsTaskConfig config = new EtcdOpsTaskConfig();
    config.setReplaceMemberVolume(replace);
    return config;
  }

  @Override
  List<String> effects(Etcd etcd) {
    int replicas = etcd.getSpec().getReplicas() == null ? 0 : etcd.getSpec().getReplicas();
    return List.of("replaceMemberVolume " + member + ": removes it from the etcd membership,"
            + " deletes its pod and PVC and creates both anew",
        replicas > 1 ? "the member rejoins as a learner and syncs from the others; the others"
            + " keep running" : "a single member restores from the backup store");
  }
}
