package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.DefragmentConfig;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.cli.shared.GoDurationConverter;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code defragment}: a defragment task, followed to its end. */
@Command(name = "defragment", mixinStandardHelpOptions = true,
    description = "Defragment every member now: creates an EtcdOpsTask (defragment) and"
        + " follows it.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:every member defragmented (or the task created, with --no-wait; shown, with"
            + " --dry-run)",
        "1:error", "2:usage error", "3:Etcd not found", "4:timed out following the task",
        "5:the task failed or was rejected"})
final class DefragmentCommand extends OpsTaskCommand {

  @Option(names = "--timeout-per-member", paramLabel = "DURATION", defaultValue = "5m",
      converter = GoDurationConverter.class,
      description = "Timeout of one member's defragmentation (default: ${DEFAULT-VALUE}).")
  Duration perMember;

  @Override
  String operation() {
    return "defragment";
  }

  @Override
  EtcdOpsTaskConfig config(Etcd etcd) {
    DefragmentConfig defragment = new DefragmentConfig();
    defragment.setTimeoutSecondsPerMember((int) Math.max(1, perMember.toSeconds()));
    EtcdOpsTaskConfig config = new EtcdOpsTaskConfig();
    config.setDefragment(defragment);
    return config;
  }

  @Override
  List<String> effects(Etcd etcd) {
    return List.of("defragment: each member in turn, followers first, the leader last after"
        + " leadership moved away; at most " + GoDurationConverter.format(perMember)
        + " per member");
  }
}
