package cloud.gardener.druid.agent.metrics;

import cloud.gardener.druid.agent.store.Snapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The metric families of etcd-backup-restore ({@code pkg/metrics}), with its names, label
 * names and values, types and buckets (Prometheus' default buckets for every histogram), and
 * every labelled series present at zero from the start as upstream initialises them, so
 * Gardener's dashboards, recording rules and alerts read this agent as they read the Go
 * sidecar. The one home of these metrics: the snapshotter, garbage collection, the
 * initialiser, the defragmenter and the learner/member operations report here.
 */
public final class BackupRestoreMetrics {

  /** Prometheus' default histogram buckets, as upstream's histograms use them. */
  static final double[] DEFAULT_BUCKETS =
      {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  /** Upstream's snapshot kinds; {@code Chunk} are the parts of an unfinished upload. */
  public static final String KIND_FULL = "Full";
  public static final String KIND_INCR = "Incr";
  public static final String KIND_CHUNK = "Chunk";
  private static final List<String> KINDS = List.of(KIND_FULL, KIND_INCR, KIND_CHUNK);
  private static final List<String> SUCCEEDED = List.of("false", "true");

  /** The {@code restore} label: how the member got its data back. */
  public enum RestoreKind {
    /** Restored from the store (a single member, or a bootstrapping one). */
    SINGLE_NODE("single_node"),
    /** Joined the running cluster anew (wiped, removed, added as a learner). */
    SINGLE_MEMBER("single_member");

    private final String label;

    RestoreKind(String label) {
      this.label = label;
    }
  }

  private final Map<String, MetricFamily> families = new TreeMap<>();

  private final MetricFamily gcTotal = add(MetricFamily.counter("etcdbr_snapshot_gc_total",
      "Number of snapshots garbage collection deleted (or failed to).", "kind", "succeeded"));
  private final MetricFamily chainGaps = add(MetricFamily.counter(
      "etcddruid_agent_snapshot_chain_gaps_total", "Extension of this operator: gaps found in"
          + " the store's newest delta chain (each answered with a full snapshot)."));
  private final MetricFamily latestRevision = add(MetricFamily.gauge(
      "etcdbr_snapshot_latest_revision", "Last revision of the newest snapshot.", "kind"));
  private final MetricFamily latestTimestamp = add(MetricFamily.gauge(
      "etcdbr_snapshot_latest_timestamp", "Creation time (unix seconds) of the newest snapshot.",
      "kind"));
  private final MetricFamily required = add(MetricFamily.gauge("etcdbr_snapshot_required",
      "1 while etcd holds changes that no snapshot of this kind holds yet.", "kind"));
  private final MetricFamily snapshotDuration = add(MetricFamily.histogram(
      "etcdbr_snapshot_duration_seconds", "Time to write a snapshot into the store.",
      DEFAULT_BUCKETS, "kind", "succeeded"));
  private final MetricFamily validationDuration = add(MetricFamily.histogram(
      "etcdbr_validation_duration_seconds", "Time to validate the data directory.",
      DEFAULT_BUCKETS, "succeeded"));
  private final MetricFamily restorationDuration = add(MetricFamily.histogram(
      "etcdbr_restoration_duration_seconds", "Time to give the member its data back.",
      DEFAULT_BUCKETS, "restore", "succeeded"));
  private final MetricFamily defragmentationDuration = add(MetricFamily.histogram(
      "etcdbr_defragmentation_duration_seconds", "Time to defragment one member.",
      DEFAULT_BUCKETS, "endpoint", "succeeded"));
  private final MetricFamily latestDeltas = add(MetricFamily.gauge(
      "etcdbr_snapstore_latest_deltas_total",
      "Delta snapshots in the store after the newest full snapshot."));
  private final MetricFamily latestDeltaRevisions = add(MetricFamily.gauge(
      "etcdbr_snapstore_latest_deltas_revisions_total",
      "Revisions held by the delta snapshots after the newest full snapshot."));
  private final MetricFamily snapshotterFailure = add(MetricFamily.counter(
      "etcdbr_snapshotter_failure", "Snapshotter errors, by message.", "error"));
  private final MetricFamily clusterSize = add(MetricFamily.gauge("etcdbr_cluster_size",
      "Members of the etcd cluster this member was configured with."));
  private final MetricFamily isLearner = add(MetricFamily.gauge("etcdbr_is_learner",
      "1 while this member is a learner, else 0."));
  private final MetricFamily isLearnerCount = add(MetricFamily.counter(
      "etcdbr_is_learner_count_total", "Attempts to add this member as a learner.",
      "succeeded"));
  private final MetricFamily addLearnerDuration = add(MetricFamily.histogram(
      "etcdbr_add_learner_duration_seconds", "Time to add this member as a learner.",
      DEFAULT_BUCKETS, "succeeded"));
  private final MetricFamily memberRemoveDuration = add(MetricFamily.histogram(
      "etcdbr_member_remove_duration_seconds", "Time to remove a member from the cluster.",
      DEFAULT_BUCKETS, "succeeded"));
  private final MetricFamily memberPromoteDuration = add(MetricFamily.histogram(
      "etcdbr_member_promote_duration_seconds", "Time to promote a learner to a voting member.",
      DEFAULT_BUCKETS, "succeeded"));

  /** With the network counters of this process's network namespace (the pod's), on Linux. */
  public BackupRestoreMetrics() {
    this(NetworkUsage.ofThisProcess());
  }

  BackupRestoreMetrics(Optional<NetworkUsage> network) {
    network.ifPresent(n -> {
      add(MetricFamily.counterFunction("etcdbr_network_transmitted_bytes",
          "Bytes sent over the network (all interfaces).", n::transmittedBytes));
      add(MetricFamily.counterFunction("etcdbr_network_received_bytes",
          "Bytes received over the network (all interfaces).", n::receivedBytes));
    });
    for (String kind : KINDS) {
      latestRevision.series(kind);
      latestTimestamp.series(kind);
      required.series(kind);
      for (String succeeded : SUCCEEDED) {
        gcTotal.series(kind, succeeded);
        snapshotDuration.series(kind, succeeded);
      }
    }
    for (String succeeded : SUCCEEDED) {
      validationDuration.series(succeeded);
      defragmentationDuration.series("", succeeded);
      for (RestoreKind kind : RestoreKind.values()) {
        restorationDuration.series(kind.label, succeeded);
      }
      isLearnerCount.series(succeeded);
      addLearnerDuration.series(succeeded);
      memberRemoveDuration.series(succeeded);
      memberPromoteDuration.series(succeeded);
    }
    latestDeltas.series();
    latestDeltaRevisions.series();
    snapshotterFailure.series("");
    clusterSize.series();
    isLearner.series();
  }

  private MetricFamily add(MetricFamily family) {
    families.put(family.name(), family);
    return family;
  }

  /** Every family in the Prometheus text format 0.0.4, ordered by name. */
  public String scrape() {
    StringBuilder out = new StringBuilder();
    for (MetricFamily family : families.values()) {
      family.writeTo(out);
    }
    return out.toString();
  }

  public static String kind(Snapshot.Kind kind) {
    return switch (kind) {
      case FULL -> KIND_FULL;
      case INCR -> KIND_INCR;
    };
  }

  // snapshots

  public void snapshotWritten(Snapshot snapshot) {
    String kind = kind(snapshot.kind());
    latestRevision.series(kind).set(snapshot.endRevision());
    latestTimestamp.series(kind).set(snapshot.createdOn().getEpochSecond());
    if (snapshot.isFull()) {
      required.series(KIND_FULL).set(0);
      required.series(KIND_INCR).set(0);
      latestDeltas.series().set(0);
      latestDeltaRevisions.series().set(0);
    } else {
      required.series(KIND_INCR).set(0);
      latestDeltas.series().inc();
      latestDeltaRevisions.series().add(snapshot.endRevision() - snapshot.startRevision());
    }
  }

  public void snapshotTimed(Snapshot.Kind kind, boolean succeeded, Duration took) {
    snapshotDuration.series(kind(kind), Boolean.toString(succeeded)).observe(seconds(took));
  }

  /**
   * What the store holds when this member starts writing snapshots: the newest full snapshot
   * and the deltas after it (upstream reads the same when its snapshotter starts). Deltas
   * after the full snapshot mean changes no full snapshot holds: a full one is required.
   */
  public void storeResumed(Snapshot latestFull, List<Snapshot> deltasAfter) {
    latestTimestamp.series(KIND_FULL).set(latestFull.createdOn().getEpochSecond());
    Snapshot latest = deltasAfter.isEmpty() ? latestFull : deltasAfter.get(deltasAfter.size() - 1);
    latestTimestamp.series(KIND_INCR).set(latest.createdOn().getEpochSecond());
    latestRevision.series(kind(latest.kind())).set(latest.endRevision());
    latestDeltas.series().set(deltasAfter.size());
    if (!deltasAfter.isEmpty()) {
      required.series(KIND_FULL).set(1);
    }
    latestDeltaRevisions.series().set(deltasAfter.isEmpty() ? 0
        : latest.endRevision() - deltasAfter.get(0).startRevision());
  }

  /** Events that no delta holds wait in the buffer (so no full snapshot holds them either). */
  public void eventsBuffered() {
    required.series(KIND_FULL).set(1);
    required.series(KIND_INCR).set(1);
  }

  public void snapshotterFailed(Exception error) {
    String message = String.valueOf(error.getMessage());
    snapshotterFailure.series(message).inc();
  }

  public void chainGap() {
    chainGaps.series().inc();
  }

  public void garbageCollected(String kind, boolean succeeded) {
    gcTotal.series(kind, Boolean.toString(succeeded)).inc();
  }

  // initialisation

  public void clusterSize(int members) {
    clusterSize.series().set(members);
  }

  public void validated(boolean succeeded, Duration took) {
    validationDuration.series(Boolean.toString(succeeded)).observe(seconds(took));
  }

  public void restored(RestoreKind kind, boolean succeeded, Duration took) {
    restorationDuration.series(kind.label, Boolean.toString(succeeded)).observe(seconds(took));
  }

  // members

  public void learnerAdded(boolean succeeded, Duration took) {
    isLearnerCount.series(Boolean.toString(succeeded)).inc();
    addLearnerDuration.series(Boolean.toString(succeeded)).observe(seconds(took));
    if (succeeded) {
      isLearner.series().set(1);
    }
  }

  public void learner(boolean learner) {
    isLearner.series().set(learner ? 1 : 0);
  }

  public void memberRemoved(boolean succeeded, Duration took) {
    memberRemoveDuration.series(Boolean.toString(succeeded)).observe(seconds(took));
  }

  public void memberPromoted(boolean succeeded, Duration took) {
    memberPromoteDuration.series(Boolean.toString(succeeded)).observe(seconds(took));
  }

  public void defragmented(String endpoint, boolean succeeded, Duration took) {
    defragmentationDuration.series(endpoint, Boolean.toString(succeeded))
        .observe(seconds(took));
  }

  private static double seconds(Duration took) {
    return took.toNanos() / 1e9;
  }

  /** Runs {@code operation} and reports its outcome and duration to {@code recorder}. */
  public static <T, E extends Exception> T timed(Recorder recorder, Operation<T, E> operation)
      throws E {
    long started = System.nanoTime();
    boolean succeeded = false;
    try {
      T result = operation.run();
      succeeded = true;
      return result;
    } finally {
      recorder.record(succeeded, Duration.ofNanos(System.nanoTime() - started));
    }
  }

  /** Where {@link #timed} reports, e.g. {@code metrics::memberRemoved}. */
  @FunctionalInterface
  public interface Recorder {
    void record(boolean succeeded, Duration took);
  }

  @FunctionalInterface
  public interface Operation<T, E extends Exception> {
    T run() throws E;
  }
}
