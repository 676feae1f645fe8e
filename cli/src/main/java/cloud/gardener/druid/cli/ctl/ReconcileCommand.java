package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import picocli.CommandLine.Command;

/** {@code reconcile}: the upstream reconcile annotation. */
@Command(name = "reconcile", mixinStandardHelpOptions = true,
    description = "Ask the operator to reconcile the Etcd's spec once (annotation"
        + " druid.gardener.cloud/operation=reconcile), also when it runs with"
        + " --enable-etcd-spec-auto-reconcile=false.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:annotated (or shown, with --dry-run)", "1:error", "2:usage error", "3:Etcd not found"})
final class ReconcileCommand extends EtcdEditCommand {

  @Override
  Plan plan(Etcd etcd) {
    return EtcdPlans.reconcile(etcd);
  }
}
