package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code status}: one Etcd in detail, or a table of the Etcds of a namespace or of all. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
        "With ETCD: its rollout, members, roles, revisions, conditions, the volume operation"
            + " in progress or the pending volume change, and its EtcdOpsTasks with their"
            + " progress. Without: one line per Etcd of the namespace (-A: of all)."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:shown", "1:error", "2:usage error", "3:Etcd not found"})
final class CtlStatusCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Parameters(index = "0", arity = "0..1", paramLabel = "ETCD",
      description = "Name of the Etcd (default: list them).")
  String name;

  @Option(names = {"-A", "--all-namespaces"},
      description = "List the Etcds of every namespace.")
  boolean allNamespaces;

  @Option(names = {"-l", "--selector"}, paramLabel = "SELECTOR",
      description = "Label selector of the listed Etcds, e.g. app=main,tier!=test.")
  String selector;

  @Option(names = {"-o", "--output"}, paramLabel = "json|yaml|wide",
      description = "Output format: json or yaml (the objects), wide (more columns).")
  OutputFormat output;

  @Override
  public Integer call() {
    if (name != null && (allNamespaces || selector != null)) {
      throw new UserError("a name cannot be combined with -A or -l", ExitCodes.USAGE);
    }
    PrintWriter out = spec.commandLine().getOut();
    try (KubernetesClient client = target.client()) {
      if (name == null) {
        return list(client, out);
      }
      String namespace = target.namespace();
      Etcd etcd = Etcds.get(client.resources(Etcd.class).inNamespace(namespace).withName(name),
          namespace, name);
      if (output == OutputFormat.json || output == OutputFormat.yaml) {
        out.print(output.print(etcd));
        return ExitCodes.OK;
      }
      List<EtcdOpsTask> tasks = client.resources(EtcdOpsTask.class).inNamespace(namespace)
          .list().getItems();
      out.print(EtcdStatusReport.render(etcd, tasks));
      return ExitCodes.OK;
    }
  }

  private int list(KubernetesClient client, PrintWriter out) {
    var all = client.resources(Etcd.class);
    var scope = allNamespaces ? all.inAnyNamespace() : all.inNamespace(target.namespace());
    List<Etcd> etcds = (selector == null ? scope : scope.withLabelSelector(selector)).list()
        .getItems().stream()
        .sorted(Comparator.comparing((Etcd e) -> e.getMetadata().getNamespace())
            .thenComparing(e -> e.getMetadata().getName()))
        .toList();
    if (output == OutputFormat.json || output == OutputFormat.yaml) {
      out.print(output.printList(etcds));
      return ExitCodes.OK;
    }
    if (etcds.isEmpty()) {
      spec.commandLine().getErr().println(allNamespaces ? "No Etcds found."
          : "No Etcds found in namespace " + target.namespace() + ".");
      return ExitCodes.OK;
    }
    out.print(EtcdListReport.render(etcds, allNamespaces, output == OutputFormat.wide,
        Instant.now()));
    return ExitCodes.OK;
  }
}
