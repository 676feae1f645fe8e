package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.agent.pitr.DeltaHistory;
import cloud.gardener.druid.agent.pitr.RetainedHistory;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
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
 * {@code history}: the revisions an Etcd's backups can restore and, for a prefix, the
 * revisions at which keys under it were deleted (addition), read from the store on this
 * machine as {@code backups} does, so that a restore or an undelete needs no guessing.
 */
@Command(name = "history", mixinStandardHelpOptions = true,
    description = "Show the retained history of the Etcd's backups (oldest and newest "
        + "restorable revision and time, Local and S3 stores) and, with --prefix, the "
        + "revisions at which keys under the prefix were deleted, read from the delta "
        + "snapshots (docs/time-travel.md).",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:shown", "1:error (store"
        + " unreachable)", "2:usage error", "3:Etcd, store or store secret not found, or no"
        + " full snapshot yet", "6:provider not supported here"})
final class HistoryCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Parameters(index = "0", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  @Option(names = "--prefix", paramLabel = "PREFIX",
      description = "List the deletes of keys under this prefix.")
  String prefix;

  @Mixin
  LocalStoreOptions localStore = new LocalStoreOptions();

  @Option(names = {"-o", "--output"}, paramLabel = "json|yaml",
      description = "Print the history as json or yaml.")
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
        RetainedHistory history = RetainedHistory.of(opened.store().list());
        if (history.isEmpty()) {
          throw new UserError("the store " + opened.store().location() + " of etcd "
              + namespace + "/" + name + " holds no full snapshot yet: no history to show",
              ExitCodes.NOT_FOUND);
        }
        List<DeltaHistory.Deletion> deletions = prefix == null ? List.of()
            : new DeltaHistory(opened.store(), history).deletions(prefix);
        if (output == OutputFormat.json || output == OutputFormat.yaml) {
          out.print(output.print(map(history, deletions)));
        } else {
          print(out, opened.store().location(), history, deletions);
        }
        return ExitCodes.OK;
      }
    }
  }

  private void print(PrintWriter out, String location, RetainedHistory history,
      List<DeltaHistory.Deletion> deletions) {
    RetainedHistory.Span oldest = history.oldest().orElseThrow();
    RetainedHistory.Span newest = history.newest().orElseThrow();
    out.println("retained history of etcd " + target.namespace() + "/" + name + " ("
        + location + "):");
    out.println("  oldest: revision " + oldest.from() + " at " + oldest.fromTime());
    out.println("  newest: revision " + newest.to() + " at " + newest.toTime());
    out.println("  " + history.describe());
    if (prefix == null) {
      return;
    }
    if (deletions.isEmpty()) {
      out.println("no key under " + prefix + " was deleted in the retained history");
      return;
    }
    out.println("deletes under " + prefix + ":");
    out.printf("  %-10s %-30s %-6s %s%n", "REVISION", "TIME", "KEYS", "FIRST KEY");
    for (DeltaHistory.Deletion d : deletions) {
      out.printf("  %-10d %-30s %-6d %s%n", d.revision(), d.time(), d.keys(), d.firstKey());
    }
    DeltaHistory.Deletion last = deletions.get(deletions.size() - 1);
    out.println("to bring back the keys of the last delete: kubectl druid undelete " + name
        + " --prefix " + prefix + " --at " + (last.revision() - 1));
  }

  private Map<String, Object> map(RetainedHistory history,
      List<DeltaHistory.Deletion> deletions) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("oldestRevision", history.oldest().orElseThrow().from());
    m.put("oldestTime", history.oldest().orElseThrow().fromTime().toString());
    m.put("newestRevision", history.newest().orElseThrow().to());
    m.put("newestTime", history.newest().orElseThrow().toTime().toString());
    m.put("available", history.describe());
    if (prefix != null) {
      m.put("prefix", prefix);
      m.put("deletions", deletions.stream().map(d -> {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("revision", d.revision());
        e.put("time", d.time().toString());
        e.put("keys", d.keys());
        e.put("firstKey", d.firstKey());
        return e;
      }).toList());
    }
    return m;
  }
}
