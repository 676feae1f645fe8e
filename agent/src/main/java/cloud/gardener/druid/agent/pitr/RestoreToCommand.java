package cloud.gardener.druid.agent.pitr;

import cloud.gardener.druid.agent.config.EtcdBinDirOption;
import cloud.gardener.druid.agent.config.EtcdNameOptions;
import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.StoreOptions;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.restore.RestoreException;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.api.pitr.TimeTravelReport;
import cloud.gardener.druid.api.pitr.TimeTravelReport.Keys;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code druid agent restore-to}: a point-in-time restore of an Etcd's backups into the empty
 * store prefix of a new Etcd ({@link PointInTimeRestore}); the operator runs it as a Job for
 * the {@code restoreInto} EtcdOpsTask.
 */
@Command(
    name = "restore-to",
    mixinStandardHelpOptions = true,
    description = {
        "Point-in-time restore: restore the Etcd's backups at a revision (or at the last "
            + "event not after a time) and write the result as the first full snapshot of "
            + "another, empty store prefix in the same container, for a new Etcd whose members"
            + " restore it. The source store is only read. Prints the report as JSON on the "
            + "last line.",
        "Exit codes: 0 when restored, 1 when refused or failed, 64 for invalid options."})
public final class RestoreToCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  StoreOptions storeOptions = new StoreOptions();

  @Mixin
  EtcdNameOptions etcd = new EtcdNameOptions();

  @Mixin
  EtcdBinDirOption etcdBinDir = new EtcdBinDirOption();

  @Option(names = "--to-revision", paramLabel = "R", description = "The revision to restore.")
  Long revision;

  @Option(names = "--to-time", paramLabel = "TIME", description = "Restore the last event "
      + "not after this RFC 3339 time (2026-12-04T23:15:00Z).")
  String time;

  @Option(names = "--target-store-prefix", paramLabel = "PREFIX", required = true,
      description = "The new Etcd's store prefix (same provider, container and secret).")
  String targetPrefix;

  @Option(names = "--target-etcd-name", paramLabel = "ETCD", required = true,
      description = "The new Etcd, named in the target's identity marker.")
  String targetEtcd;

  @Option(names = "--revision-above", paramLabel = "REVISION", defaultValue = "0",
      description = "The new Etcd's revision ends above this one (the source's current "
          + "revision) and above every revision in the source's store (default: "
          + "${DEFAULT-VALUE}: the store's alone).")
  long revisionAbove;

  @Option(names = "--revision-margin", paramLabel = "REVISIONS", defaultValue = "1000000",
      description = "How far above those the new revision ends (default: ${DEFAULT-VALUE}): "
          + "the source's writes since its newest delta snapshot must stay below it.")
  long margin;

  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "/var/etcd/data/restore",
      description = "Scratch directory, deleted afterwards (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Override
  public Integer call() {
    StoreConfig source;
    StoreConfig target;
    PointInTime at;
    try {
      source = storeOptions.required();
      target = new StoreConfig(source.provider(), source.container(), targetPrefix,
          source.endpointOverride(), source.secretDir());
      target.validate("target-");
      etcd.validate();
      if (revisionAbove < 0 || margin < 0) {
        throw new IllegalArgumentException("--revision-above and --revision-margin must not "
            + "be negative");
      }
      at = PitrCommands.point(revision, time, "--to-revision", "--to-time");
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("invalid options: " + e.getMessage());
      return PitrCommands.EXIT_INVALID_OPTIONS;
    }
    TimeTravelReport report;
    try (SnapshotStore from = SnapshotStores.open(source);
        SnapshotStore into = SnapshotStores.open(target)) {
      PointInTimeRestore.Result r = new PointInTimeRestore(from, into,
          new StoreIdentity(etcd.namespace(), targetEtcd), EtcdTuning.defaults(etcdBinDir.dir()),
          etcd.scratchMember("restore", "restore", dataDir), Clock.systemUTC())
          .run(at, revisionAbove, margin);
      report = new TimeTravelReport(TimeTravelReport.Outcome.DONE, r.sourceRevision(),
          "restored revision " + r.sourceRevision() + " of " + etcd.name() + " ("
              + r.deltas() + " delta snapshots replayed, " + r.restoreMillis() + " ms) into "
              + into.location() + " as " + r.written() + " at revision " + r.revision(),
          r.revision(), Keys.NONE, Keys.NONE, 0, Keys.NONE);
    } catch (PitrException | IOException | RestoreException | EtcdException
        | RuntimeException e) {
      report = TimeTravelReport.failed(revision == null ? 0 : revision,
          "restore failed: " + PitrCommands.message(e));
    }
    return PitrCommands.report(spec.commandLine().getOut(), report);
  }
}
