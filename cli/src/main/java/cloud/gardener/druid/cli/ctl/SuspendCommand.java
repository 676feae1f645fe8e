package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import picocli.CommandLine.Command;

/** {@code suspend}: pause spec reconciles (the upstream suspend annotation). */
@Command(name = "suspend", mixinStandardHelpOptions = true,
    description = "Stop applying spec changes of the Etcd (annotation"
        + " druid.gardener.cloud/suspend-etcd-spec-reconcile); its status keeps updating.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:suspended (or shown, with --dry-run)", "1:error", "2:usage error",
        "3:Etcd not found", "6:already suspended"})
final class SuspendCommand extends EtcdEditCommand {

  @Override
  Plan plan(Etcd etcd) {
    return EtcdPlans.suspend(etcd);
  }
}
