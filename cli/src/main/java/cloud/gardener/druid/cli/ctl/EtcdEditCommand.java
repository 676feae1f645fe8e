package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * A command that changes one Etcd: it reads the Etcd, prints what it will do (its
 * {@link Plan}), and makes the edit unless {@code --dry-run}; a refusal changes nothing and
 * exits {@link ExitCodes#REFUSED}.
 */
abstract class EtcdEditCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Mixin
  DryRun dryRun;

  @Parameters(index = "0", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  /** What this command will do to the Etcd as read. */
  abstract Plan plan(Etcd etcd);

  /** After the edit (not with --dry-run): by default nothing more; the exit code. */
  int afterEdit(Resource<Etcd> resource, Etcd edited, PrintWriter out) {
    return ExitCodes.OK;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try (KubernetesClient client = target.client()) {
      var resource = client.resources(Etcd.class).inNamespace(target.namespace()).withName(name);
      Etcd etcd = Etcds.get(resource, target.namespace(), name);
      Plan plan = plan(etcd);
      if (plan instanceof Plan.Refusal refusal) {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": " + refusal.reason());
        return ExitCodes.REFUSED;
      }
      Plan.Edit edit = (Plan.Edit) plan;
      edit.steps().forEach(out::println);
      if (dryRun.client()) {
        out.println(dryRun.notice());
        return ExitCodes.OK;
      }
      Etcd edited = resource.dryRun(dryRun.server()).edit(edit.edit());
      out.println(dryRun.server() ? dryRun.notice()
          : "etcd " + EtcdPlans.describe(etcd) + " changed");
      return dryRun.server() ? ExitCodes.OK : afterEdit(resource, edited, out);
    }
  }
}
