package cloud.gardener.druid.agent.compact;

import cloud.gardener.druid.agent.config.EtcdBinDirOption;
import cloud.gardener.druid.agent.config.EtcdNameOptions;
import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.StoreOptions;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.lease.LeaseClient;
import cloud.gardener.druid.agent.restore.RestoreException;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.api.types.GoDuration;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code druid agent compact}: compacts an Etcd's backups into one new full snapshot
 * (upstream's {@code etcdbrctl compact}); the operator runs it as a Job when the delta events
 * since the last full snapshot pass {@code spec.backup.snapshotCompaction.eventsThreshold}.
 */
@Command(
    name = "compact",
    mixinStandardHelpOptions = true,
    description = {
        "Compact the backups of an Etcd: restore the newest full snapshot and the delta "
            + "snapshots after it into a temporary etcd, compact and defragment it, and upload "
            + "it as a new full snapshot named after the last revision the deltas cover. With "
            + "--enable-snapshot-lease-renewal the Etcd's snapshot leases are updated.",
        "Exit codes: 0 when compacted or when there is nothing to compact, 1 when the "
            + "compaction failed, 64 for invalid options."})
public final class CompactCommand implements Callable<Integer> {

  static final int EXIT_FAILED = 1;
  static final int EXIT_INVALID_OPTIONS = 64;

  @Spec
  CommandSpec spec;

  @Mixin
  StoreOptions storeOptions = new StoreOptions();

  @Mixin
  EtcdNameOptions etcd = new EtcdNameOptions();

  @Option(names = "--data-dir", paramLabel = "DIR",
      defaultValue = "/var/etcd/data/compaction.etcd",
      description = "Scratch data directory of the temporary etcd, deleted afterwards "
          + "(default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Mixin
  EtcdBinDirOption etcdBinDir = new EtcdBinDirOption();

  @Option(names = "--etcd-snapshot-timeout", paramLabel = "DURATION", defaultValue = "15m",
      description = "Longest time the upload of the compacted snapshot may take (default: "
          + "${DEFAULT-VALUE}).")
  String snapshotTimeout;

  @Option(names = "--enable-snapshot-lease-renewal", paramLabel = "true|false", arity = "1",
      defaultValue = "false", description = "Update the full and delta snapshot leases of the "
          + "Etcd after the upload (default: ${DEFAULT-VALUE}).")
  boolean renewLeases;

  @Option(names = "--full-snapshot-lease-name", paramLabel = "LEASE",
      description = "Default: <etcd>-full-snap.")
  String fullLease;

  @Option(names = "--delta-snapshot-lease-name", paramLabel = "LEASE",
      description = "Default: <etcd>-delta-snap.")
  String deltaLease;

  @Override
  public Integer call() {
    StoreConfig store;
    Duration timeout;
    try {
      store = storeOptions.required();
      timeout = GoDuration.parse(snapshotTimeout).toDuration();
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException("--etcd-snapshot-timeout must be positive");
      }
      etcd.validate();
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("invalid options: " + e.getMessage());
      return EXIT_INVALID_OPTIONS;
    }
    try (SnapshotStore snapshots = SnapshotStores.open(store)) {
      Compactor.Outcome outcome = new Compactor(snapshots, EtcdTuning.defaults(etcdBinDir.dir()),
          etcd.scratchMember("compactor", "compaction", dataDir), Clock.systemUTC(), timeout)
          .compact();
      if (outcome instanceof Compactor.Outcome.NothingToCompact nothing) {
        spec.commandLine().getOut().println("nothing to compact: " + nothing.reason());
      } else if (outcome instanceof Compactor.Outcome.Compacted compacted) {
        spec.commandLine().getOut().println("compacted " + compacted.plan().full() + " and "
            + compacted.plan().deltas().size() + " delta snapshots into "
            + compacted.snapshot());
        if (renewLeases) {
          try (LeaseClient leases = LeaseClient.fromEnvironment()) {
            new SnapshotLeases(leases, etcd.namespace()).compacted(
                fullLease != null ? fullLease : etcd.name() + "-full-snap",
                deltaLease != null ? deltaLease : etcd.name() + "-delta-snap",
                compacted.snapshot().endRevision());
          }
        }
      }
      return 0;
    } catch (IOException | RestoreException | EtcdException | RuntimeException e) {
      String message = e.getMessage() != null ? e.getMessage() : e.toString();
      spec.commandLine().getErr().println("compaction failed: " + message);
      return EXIT_FAILED;
    }
  }
}
