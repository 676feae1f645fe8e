package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hibernate}: scale an Etcd to zero members, keeping (or freeing) its volumes. */
@Command(name = "hibernate", mixinStandardHelpOptions = true,
    description = "Hibernate the Etcd: spec.replicas 0 after a final full snapshot; the"
        + " member count is remembered for 'wake'.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:hibernation requested (or shown, with --dry-run)", "1:error", "2:usage error",
        "3:Etcd not found", "6:already hibernated, or --delete-volumes without a backup store"})
final class HibernateCommand extends EtcdEditCommand {

  @Option(names = "--delete-volumes", defaultValue = "false",
      description = "Also delete the volumes after the final snapshot; waking up restores"
          + " from the backup store (default: ${DEFAULT-VALUE}).")
  boolean deleteVolumes;

  @Override
  Plan plan(Etcd etcd) {
    return EtcdPlans.hibernate(etcd, deleteVolumes);
  }
}
