package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import picocli.CommandLine.Command;

/** {@code confirm-volumes}: authorise the pending volume replacement of the current generation. */
@Command(name = "confirm-volumes", mixinStandardHelpOptions = true,
    description = "Show the pending volume change of an Etcd and confirm it: writes"
        + " druid.gardener.cloud/confirm-volume-replacement=<metadata.generation>. A later spec"
        + " change needs a new confirmation.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:confirmed (or shown, with --dry-run)", "1:error", "2:usage error",
        "3:Etcd not found", "6:nothing awaits confirmation, or the operator has not yet"
            + " observed the current generation"})
final class ConfirmVolumesCommand extends EtcdEditCommand {

  @Override
  Plan plan(Etcd etcd) {
    return EtcdPlans.confirmVolumes(etcd);
  }
}
