package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.ManagedKinds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code list-resources}, as upstream's druidctl: every object the operator manages for an
 * Etcd (labelled {@code app.kubernetes.io/managed-by: etcd-druid} and
 * {@code app.kubernetes.io/part-of: <etcd>}), by kind.
 */
@Command(name = "list-resources", mixinStandardHelpOptions = true,
    description = "List the objects the operator manages for the Etcd (member pods, volumes,"
        + " services, ConfigMap, Secrets, service account, role, role binding, leases,"
        + " disruption budget, jobs) with their age.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:listed", "1:error",
        "2:usage error", "3:Etcd not found"})
final class ListResourcesCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Parameters(index = "0", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  @Option(names = "--filter", paramLabel = "KIND", split = ",",
      description = "Only these kinds, e.g. Pod,Service (default: all).")
  List<String> filter;

  @Option(names = {"-o", "--output"}, paramLabel = "json|yaml",
      description = "Print the objects as json or yaml.")
  OutputFormat output;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (filter != null) {
      for (String kind : filter) {
        if (!ManagedKinds.ALL.containsKey(kind)) {
          spec.commandLine().getErr().println("list-resources: --filter: unknown kind " + kind
              + " (one of " + String.join(", ", ManagedKinds.ALL.keySet()) + ")");
          return ExitCodes.USAGE;
        }
      }
    }
    String namespace = target.namespace();
    try (KubernetesClient client = target.client()) {
      Etcds.get(client.resources(Etcd.class).inNamespace(namespace).withName(name), namespace,
          name);
      List<HasMetadata> found = new ArrayList<>();
      Map<String, String> selector = Map.of(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE,
          Labels.PART_OF, name);
      for (var kind : ManagedKinds.ALL.entrySet()) {
        if (filter == null || filter.contains(kind.getKey())) {
          List<? extends HasMetadata> items = kind.getValue().list(client, namespace, selector);
          items.stream().sorted(Comparator.comparing(o -> o.getMetadata().getName()))
              .forEach(found::add);
        }
      }
      if (output == OutputFormat.json || output == OutputFormat.yaml) {
        out.print(output.printList(found));
      } else {
        out.print(render(found, Clock.systemUTC().instant()));
      }
      return ExitCodes.OK;
    }
  }

  static String render(List<HasMetadata> objects, Instant now) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("KIND", "NAME", "AGE"));
    for (HasMetadata o : objects) {
      rows.add(List.of(o.getKind(), o.getMetadata().getNamespace() + "/"
          + o.getMetadata().getName(), EtcdListReport.age(o.getMetadata().getCreationTimestamp(),
          now)));
    }
    return rows.size() == 1 ? "no objects found\n" : EtcdStatusReport.table(rows);
  }
}
