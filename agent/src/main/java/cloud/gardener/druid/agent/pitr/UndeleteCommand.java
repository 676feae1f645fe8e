package cloud.gardener.druid.agent.pitr;

import cloud.gardener.druid.agent.config.EtcdBinDirOption;
import cloud.gardener.druid.agent.config.EtcdNameOptions;
import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.StoreOptions;
import cloud.gardener.druid.agent.etcd.EtcdClients;
import cloud.gardener.druid.agent.restore.RestoreException;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.agent.tls.TlsFiles;
import cloud.gardener.druid.api.pitr.TimeTravelReport;
import io.etcd.jetcd.Client;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code druid agent undelete}: brings the keys under a prefix back into the live cluster as
 * they were at a revision ({@link Undeleter}); the operator runs it as a Job for the
 * {@code undelete} EtcdOpsTask.
 */
@Command(
    name = "undelete",
    mixinStandardHelpOptions = true,
    description = {
        "Undelete a prefix: restore the Etcd's backups at a revision (or time) into a "
            + "temporary etcd on loopback, and write each key under the prefix that the live "
            + "cluster no longer holds back into it, in a transaction guarded by the key's "
            + "absence: a key changed or re-created since is reported, not overwritten. Keys "
            + "created after the revision are left alone unless --remove-created-after. "
            + "Prints one line per key and the report as JSON on the last line.",
        "Exit codes: 0 when done (skipped keys included) or a dry run, 1 when refused or "
            + "failed, 64 for invalid options."})
public final class UndeleteCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  StoreOptions storeOptions = new StoreOptions();

  @Mixin
  EtcdNameOptions etcd = new EtcdNameOptions();

  @Mixin
  EtcdBinDirOption etcdBinDir = new EtcdBinDirOption();

  @Option(names = "--prefix", paramLabel = "PREFIX", required = true,
      description = "The key prefix to bring back.")
  String prefix;

  @Option(names = "--at-revision", paramLabel = "R", description = "The revision whose keys "
      + "are brought back (before the delete: see druid history).")
  Long revision;

  @Option(names = "--at-time", paramLabel = "TIME", description = "Bring back the keys as "
      + "they were after the last event not after this RFC 3339 time.")
  String time;

  @Option(names = "--dry-run", description = "List what would be written and skipped; "
      + "write nothing.")
  boolean dryRun;

  @Option(names = "--remove-created-after", description = "Also remove keys under the prefix"
      + " created after the revision (each unless modified since it was read).")
  boolean removeCreatedAfter;

  @Option(names = "--endpoints", paramLabel = "URL", split = ",", required = true,
      description = "Client URLs of the live cluster.")
  List<URI> endpoints;

  @Option(names = "--client-tls-dir", paramLabel = "DIR", description = "Directory with "
      + "ca.crt, tls.crt, tls.key for the live cluster's client URLs. Default: plain HTTP.")
  Path clientTlsDir;

  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "/var/etcd/data/undelete",
      description = "Scratch directory, deleted afterwards (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Override
  public Integer call() {
    StoreConfig store;
    Undeleter.Request request;
    try {
      store = storeOptions.required();
      etcd.validate();
      request = new Undeleter.Request(prefix, PitrCommands.point(revision, time,
          "--at-revision", "--at-time"), dryRun, removeCreatedAfter);
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("invalid options: " + e.getMessage());
      return PitrCommands.EXIT_INVALID_OPTIONS;
    }
    PrintWriter out = spec.commandLine().getOut();
    TimeTravelReport report;
    Optional<TlsFiles> tls = Optional.ofNullable(clientTlsDir).map(dir -> new TlsFiles(
        dir.resolve("ca.crt"), dir.resolve("tls.crt"), dir.resolve("tls.key")));
    try (SnapshotStore snapshots = SnapshotStores.open(store);
        Client live = EtcdClients.connect(endpoints, tls, etcd.etcdCredentials())) {
      report = new Undeleter(snapshots, EtcdTuning.defaults(etcdBinDir.dir()),
          etcd.scratchMember("undelete", "undelete", dataDir), live, Clock.systemUTC(),
          line -> {
            out.println(line);
            out.flush();
          }).run(request);
    } catch (PitrException | IOException | RestoreException | RuntimeException e) {
      report = TimeTravelReport.failed(revision == null ? 0 : revision,
          "undelete failed: " + PitrCommands.message(e));
    }
    return PitrCommands.report(out, report);
  }
}
