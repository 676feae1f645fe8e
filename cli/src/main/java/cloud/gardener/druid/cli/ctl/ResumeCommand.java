package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import picocli.CommandLine.Command;

/** {@code resume}: lift {@code suspend}. */
@Command(name = "resume", mixinStandardHelpOptions = true,
    description = "Apply spec changes of the Etcd again: removes"
        + " druid.gardener.cloud/suspend-etcd-spec-reconcile.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:resumed (or shown, with --dry-run)", "1:error", "2:usage error",
        "3:Etcd not found", "6:not suspended"})
final class ResumeCommand extends EtcdEditCommand {

  @Override
  Plan plan(Etcd etcd) {
    return EtcdPlans.resume(etcd);
  }
}
