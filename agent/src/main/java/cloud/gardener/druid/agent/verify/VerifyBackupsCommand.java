package cloud.gardener.druid.agent.verify;

import cloud.gardener.druid.agent.config.EtcdBinDirOption;
import cloud.gardener.druid.agent.config.EtcdNameOptions;
import cloud.gardener.druid.agent.config.StoreOptions;
import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.lease.LeaseClient;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.api.verify.DrillReport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code druid agent verify-backups}: a restore drill ({@link BackupDrill}); the operator runs
 * it as a Job on demand (EtcdOpsTask {@code verifyBackups}) and on {@code
 * spec.backup.verification.schedule}.
 */
@Command(
    name = "verify-backups",
    mixinStandardHelpOptions = true,
    description = {
        "Restore drill: restore the newest full snapshot and its delta snapshots into "
            + "temporary etcds on loopback and compare their content with the hashes the "
            + "leader's agent recorded when it wrote them. Prints the report as JSON on the "
            + "last line; with --report-lease it is also written into that lease.",
        "Exit codes: 0 when verified, unproven (no hash recorded) or nothing to verify, 1 when "
            + "a piece is missing, corrupt or restores other content, 64 for invalid options."})
public final class VerifyBackupsCommand implements Callable<Integer> {

  static final int EXIT_FAILED = 1;
  static final int EXIT_INVALID_OPTIONS = 64;

  @Spec
  CommandSpec spec;

  @Mixin
  StoreOptions storeOptions = new StoreOptions();

  @Mixin
  EtcdNameOptions etcd = new EtcdNameOptions();

  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "/var/etcd/data/drill",
      description = "Scratch directory of the temporary etcds, deleted afterwards "
          + "(default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Mixin
  EtcdBinDirOption etcdBinDir = new EtcdBinDirOption();

  @Option(names = "--report-lease", paramLabel = "LEASE",
      description = "Write the report into this lease of the namespace (annotation "
          + DrillReport.LEASE_ANNOTATION + ").")
  String reportLease;

  @Override
  public Integer call() {
    StoreConfig store;
    try {
      store = storeOptions.required();
      etcd.validate();
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("invalid options: " + e.getMessage());
      return EXIT_INVALID_OPTIONS;
    }
    DrillReport report;
    try (SnapshotStore snapshots = SnapshotStores.open(store)) {
      report = new BackupDrill(snapshots, EtcdTuning.defaults(etcdBinDir.dir()),
          etcd.scratchMember("drill", "drill", dataDir),
          Clock.systemUTC()).run();
    } catch (IOException | RuntimeException e) {
      report = new DrillReport(DrillReport.Outcome.FAILED, null, 0, 0, store.container(),
          DrillReport.Reason.RESTORE_FAILED, "cannot open the store: " + e.getMessage(),
          Clock.systemUTC().instant().toString(), 0, 0, null);
    }
    spec.commandLine().getOut().println(report.outcome() + ": " + report.message());
    spec.commandLine().getOut().println(report.toJson());
    if (reportLease != null) {
      writeLease(report);
    }
    return report.outcome() == DrillReport.Outcome.FAILED ? EXIT_FAILED : 0;
  }

  private void writeLease(DrillReport report) {
    try (LeaseClient leases = LeaseClient.fromEnvironment()) {
      LeaseClient.Outcome outcome = leases.updateIf(etcd.namespace(), reportLease, lease -> true,
          lease -> {
            Map<String, String> annotations = new HashMap<>(
                Optional.ofNullable(lease.getMetadata().getAnnotations()).orElse(Map.of()));
            annotations.put(DrillReport.LEASE_ANNOTATION, report.toJson());
            lease.getMetadata().setAnnotations(annotations);
            lease.getSpec().setHolderIdentity(report.outcome().name());
            lease.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
          }, 5);
      if (!(outcome instanceof LeaseClient.Outcome.Renewed)) {
        spec.commandLine().getErr().println("the report was not written into lease "
            + reportLease + ": " + outcome);
      }
    } catch (RuntimeException e) {
      spec.commandLine().getErr().println("the report was not written into lease "
          + reportLease + ": " + e.getMessage());
    }
  }
}
