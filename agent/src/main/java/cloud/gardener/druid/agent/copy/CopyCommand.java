package cloud.gardener.druid.agent.copy;

import cloud.gardener.druid.agent.config.StoreOptions;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.agent.util.TerminationMessage;
import cloud.gardener.druid.api.types.GoDuration;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code druid agent copy}: copies the backups of one store into another (upstream's
 * {@code etcdbrctl copy}), e.g. from a Job when an Etcd's backup store changes. The
 * {@code --store-*} options name the target, as they name the store of {@code druid agent};
 * the {@code --source-store-*} options name the source.
 */
@Command(
    name = "copy",
    mixinStandardHelpOptions = true,
    description = {
        "Copy backups (a full snapshot and the delta snapshots after it) from the source "
            + "store to the target store. Objects already in the target are skipped, so an "
            + "interrupted copy is resumed by running it again. Each backup's full snapshot is "
            + "copied before its deltas, oldest backup first.",
        "Exit codes: 0 when every selected snapshot is in the target, 1 when a copy failed, "
            + "64 for invalid options."})
public final class CopyCommand implements Callable<Integer> {

  static final int EXIT_FAILED = 1;
  static final int EXIT_INVALID_OPTIONS = 64;

  @Spec
  CommandSpec spec;

  /** The target store. */
  @Mixin
  StoreOptions target = new StoreOptions();

  @Option(names = "--source-store-provider", paramLabel = "Local|S3|GCS|ABS",
      required = true,
      description = "Source store: Local, S3, GCS or ABS.")
  StoreConfig.Provider sourceProvider;

  @Option(names = "--source-store-container", paramLabel = "BUCKET|CONTAINER|DIR",
      required = true,
      description = "Source bucket (S3, GCS), blob container (ABS) or directory (Local).")
  String sourceContainer;

  @Option(names = "--source-store-prefix",
      paramLabel = "PREFIX", required = true, description = "Source prefix.")
  String sourcePrefix;

  @Option(names = "--source-store-endpoint-override", paramLabel = "URL",
      description = "Source endpoint.")
  URI sourceEndpointOverride;

  @Option(names = "--source-store-secret-dir",
      paramLabel = "DIR", description = "The source store secret's "
      + "keys as files.")
  Path sourceSecretDir;

  @Option(names = "--namespace", paramLabel = "NAMESPACE",
      defaultValue = "${env:POD_NAMESPACE}",
      description = "Namespace of the copy task: a source whose identity marker names an Etcd "
          + "of another namespace is refused. Default: $POD_NAMESPACE.")
  String namespace;

  @Option(names = "--source-etcd", paramLabel = "NAMESPACE/NAME",
      description = "The Etcd whose backups the source holds; the source's identity marker "
          + "must name it. Needed to copy another namespace's backups.")
  String sourceEtcd;

  @Option(names = "--max-backup-age",
      paramLabel = "DAYS", defaultValue = "-1", description = "Copy only backups "
      + "whose full snapshot is younger than this many days. Default: -1, no limit.")
  int maxBackupAge;

  @Option(names = "--max-backups-to-copy",
      paramLabel = "COUNT", defaultValue = "-1", description = "Copy only "
      + "the newest N backups (after the age limit). Default: -1, all.")
  int maxBackupsToCopy;

  @Option(names = "--wait-for-final-snapshot",
      paramLabel = "true|false", defaultValue = "false", arity = "1",
      description = "Before copying, wait until the source's newest full snapshot is final "
          + "(taken by its agent on shutdown). Default: false.")
  boolean waitForFinalSnapshot;

  @Option(names = "--wait-for-final-snapshot-timeout", paramLabel = "DURATION", defaultValue = "0s",
      description = "Stop waiting for the final snapshot after this long (Go duration) and "
          + "copy anyway. Default: 0s, wait without limit.")
  String waitTimeout;

  @Option(names = "--final-snapshot-check-interval", paramLabel = "DURATION", defaultValue = "15s",
      description = "How often the source is checked for the final snapshot. Default: 15s.")
  String checkInterval;

  @Option(names = "--max-parallel-copy-operations", paramLabel = "COUNT", defaultValue = "10",
      description = "Snapshots copied at a time. Default: 10.")
  int parallelism;

  @Override
  public Integer call() {
    Duration timeout;
    Duration interval;
    try {
      timeout = GoDuration.parse(waitTimeout).toDuration();
      interval = GoDuration.parse(checkInterval).toDuration();
      if (interval.isZero()) {
        throw new IllegalArgumentException("--final-snapshot-check-interval must be positive");
      }
      if (parallelism < 1) {
        throw new IllegalArgumentException("--max-parallel-copy-operations must be at least 1,"
            + " not " + parallelism);
      }
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("invalid options: " + e.getMessage());
      return EXIT_INVALID_OPTIONS;
    }
    StoreConfig sourceStore = store(sourceProvider, sourceContainer, sourcePrefix,
        sourceEndpointOverride, sourceSecretDir);
    StoreConfig targetStore;
    SourceOwner owner;
    try {
      sourceStore.validate("source-");
      targetStore = target.required();
      owner = new SourceOwner(Optional.ofNullable(namespace).filter(n -> !n.isBlank()),
          Optional.ofNullable(sourceEtcd).map(SourceOwner::parseEtcd));
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("invalid options: " + e.getMessage());
      return EXIT_INVALID_OPTIONS;
    }
    try (SnapshotStore source = SnapshotStores.open(sourceStore);
        SnapshotStore target = SnapshotStores.open(targetStore)) {
      owner.check(source);
      BackupCopier copier = new BackupCopier(source, target, parallelism);
      BackupCopier.Result result;
      try (CopyProgressServer progress = CopyProgressServer.start(copier::progress)) {
        if (waitForFinalSnapshot) {
          copier.awaitFinalSnapshot(timeout, interval);
        }
        result = copier.copy(new BackupSelection(maxBackupAge, maxBackupsToCopy));
      }
      spec.commandLine().getOut().println(result.summary());
      TerminationMessage.write(result.summary());
      return 0;
    } catch (IOException | RuntimeException e) {
      String message = e.getMessage() != null ? e.getMessage() : e.toString();
      spec.commandLine().getErr().println("copy failed: " + message);
      TerminationMessage.write("copy failed: " + message);
      return EXIT_FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      spec.commandLine().getErr().println("copy interrupted");
      return EXIT_FAILED;
    }
  }

  private static StoreConfig store(StoreConfig.Provider provider, String container,
      String prefix, URI endpointOverride, Path secretDir) {
    return new StoreConfig(provider, container, prefix, Optional.ofNullable(endpointOverride),
        Optional.ofNullable(secretDir));
  }
}
