package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code wake}: start a hibernated Etcd again. */
@Command(name = "wake", mixinStandardHelpOptions = true,
    description = "Wake a hibernated Etcd: spec.replicas back to the count 'hibernate'"
        + " remembered, or --replicas.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:wake-up requested (or shown, with --dry-run)", "1:error", "2:usage error",
        "3:Etcd not found", "6:not hibernated, or no member count known"})
final class WakeCommand extends EtcdEditCommand {

  @Option(names = "--replicas", paramLabel = "COUNT",
      description = "Members to start (default: the count before 'hibernate').")
  Integer replicas;

  @Override
  Plan plan(Etcd etcd) {
    return EtcdPlans.wake(etcd, replicas);
  }
}
