package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig.Source;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code recover-quorum}: a recoverFromQuorumLoss task, followed to its end. */
@Command(name = "recover-quorum", mixinStandardHelpOptions = true,
    description = "Rebuild an Etcd that lost quorum for good: creates an EtcdOpsTask"
        + " (recoverFromQuorumLoss) and follows it. Every member pod and volume is deleted;"
        + " member 0 starts from the chosen data, the others join it.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:the cluster is back (or the task created, with --no-wait; shown, with --dry-run)",
        "1:error", "2:usage error", "3:Etcd or member not found",
        "4:timed out following the task", "5:the task failed or was rejected",
        "6:no backup store (with --source Auto or Store)"})
final class RecoverQuorumCommand extends OpsTaskCommand {

  enum From { Auto, Member, Store }

  @Option(names = "--source", paramLabel = "Auto|Member|Store", defaultValue = "Auto",
      description = "Where the data comes from: Auto (the newest of surviving members and the"
          + " store), Member or Store (default: ${DEFAULT-VALUE}).")
  From source;

  @Option(names = "--member", paramLabel = "MEMBER",
      description = "With --source Member: the member whose data is used, e.g. etcd-main-0.")
  String member;

  @Override
  String operation() {
    return "recover-quorum";
  }

  @Override
  EtcdOpsTaskConfig config(Etcd etcd) {
    if (source != From.Member) {
      requireStore(etcd, "with --source " + source + " member 0 restores from it");
    }
    if (source == From.Member && member == null) {
      throw new UserError("--source Member needs --member", ExitCodes.USAGE);
    }
    if (member != null) {
      Members.requireMember(etcd, member);
    }
    RecoverFromQuorumLossConfig recover = new RecoverFromQuorumLossConfig();
    recover.setSource(switch (source) {
      case Auto -> Source.AUTO;
      case Member -> Source.MEMBER;
      case Store -> Source.STORE;
    });
    recover.setMemberName(member);
    EtcdOpsTaskConfig config = new EtcdOpsTaskConfig();
    config.setRecoverFromQuorumLoss(recover);
    return config;
  }

  @Override
  List<String> effects(Etcd etcd) {
    return List.of("recoverFromQuorumLoss from " + source
            + (member == null ? "" : " (" + member + ")") + ": deletes every member pod and PVC"
            + " of etcd " + EtcdPlans.describe(etcd),
        "member 0 starts alone from that data (the store: the newest full snapshot and the"
            + " deltas after it); the others join it one by one",
        "writes after the newest data available are lost; clients see downtime until member"
            + " 0 is ready");
  }
}
