package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code backups}: the full and delta snapshots in an Etcd's backup store. */
@Command(name = "backups", mixinStandardHelpOptions = true,
    description = "List the full and delta snapshots in the Etcd's backup store (Local and"
        + " S3), oldest first, with revisions, times and sizes. S3 credentials come from the"
        + " Etcd's store secret.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:listed", "1:error (store"
        + " unreachable)", "2:usage error", "3:Etcd, store or store secret not found",
        "6:provider not supported here"})
final class BackupsCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Parameters(index = "0", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  @Mixin
  LocalStoreOptions localStore = new LocalStoreOptions();

  @Option(names = {"-o", "--output"}, paramLabel = "json|yaml",
      description = "Print the snapshots as json or yaml.")
  OutputFormat output;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    String namespace = target.namespace();
    try (KubernetesClient client = target.client()) {
      Etcd etcd = Etcds.get(client.resources(Etcd.class).inNamespace(namespace).withName(name),
          namespace, name);
      try (BackupStores.Opened opened = BackupStores.open(client, etcd, localStore.root,
          localStore.layout)) {
        List<Snapshot> snapshots = opened.store().list();
        List<OptionalLong> sizes = new ArrayList<>();
        for (Snapshot s : snapshots) {
          sizes.add(opened.store().size(s));
        }
        if (output == OutputFormat.json || output == OutputFormat.yaml) {
          out.print(output.printList(maps(snapshots, sizes)));
        } else {
          out.print(BackupsReport.render(opened.store().location(), snapshots, sizes));
        }
        return ExitCodes.OK;
      }
    }
  }

  private static List<Map<String, Object>> maps(List<Snapshot> snapshots,
      List<OptionalLong> sizes) {
    List<Map<String, Object>> items = new ArrayList<>();
    for (int i = 0; i < snapshots.size(); i++) {
      Snapshot s = snapshots.get(i);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", s.fileName());
      m.put("kind", s.isFull() ? "Full" : "Delta");
      m.put("startRevision", s.startRevision());
      m.put("endRevision", s.endRevision());
      m.put("createdOn", s.createdOn().toString());
      m.put("compression", s.compression().name().toLowerCase(java.util.Locale.ROOT));
      m.put("final", s.isFinal());
      if (sizes.get(i).isPresent()) {
        m.put("sizeBytes", sizes.get(i).getAsLong());
      }
      items.add(m);
    }
    return items;
  }
}
