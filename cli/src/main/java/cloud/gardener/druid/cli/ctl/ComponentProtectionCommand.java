package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code component-protection add|remove}, as upstream's druidctl: the annotation
 * {@code druid.gardener.cloud/disable-etcd-component-protection} on the Etcd.
 */
@Command(name = "component-protection", mixinStandardHelpOptions = true,
    description = "Protect the objects the operator manages for an Etcd (member pods, "
        + "ConfigMap, Services, Secrets, leases, ...) from changes by others, or lift that. "
        + "Takes effect when the operator runs with --enable-etcd-components-webhook.",
    subcommands = {ComponentProtectionCommand.Add.class, ComponentProtectionCommand.Remove.class})
final class ComponentProtectionCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "add", mixinStandardHelpOptions = true,
      description = "Protect the Etcd's managed objects again (removes the annotation"
          + " druid.gardener.cloud/disable-etcd-component-protection).",
      exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
          "0:protected (or shown, with --dry-run)", "1:error", "2:usage error",
          "3:Etcd not found", "6:already protected"})
  static final class Add extends EtcdEditCommand {
    @Override
    Plan plan(Etcd etcd) {
      return EtcdPlans.protect(etcd);
    }
  }

  @Command(name = "remove", mixinStandardHelpOptions = true,
      description = "Let anyone with RBAC rights change the Etcd's managed objects (annotation"
          + " druid.gardener.cloud/disable-etcd-component-protection).",
      exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
          "0:unprotected (or shown, with --dry-run)", "1:error", "2:usage error",
          "3:Etcd not found", "6:already unprotected"})
  static final class Remove extends EtcdEditCommand {
    @Override
    Plan plan(Etcd etcd) {
      return EtcdPlans.unprotect(etcd);
    }
  }
}
