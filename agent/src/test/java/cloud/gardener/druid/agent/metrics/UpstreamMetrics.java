package cloud.gardener.druid.agent.metrics;

import java.util.List;

/**
 * What etcd-backup-restore exposes, written out from its sources (pkg/metrics) and from
 * Gardener's scrape configuration of it: the list the metrics tests compare the agent with.
 */
public final class UpstreamMetrics {

  /** etcd-backup-restore's families (pkg/metrics), as a Go agent exposes them at start. */
  public record Family(String name, String type, List<String> labels, int seriesAtStart) {
  }

  public static final List<Family> FAMILIES = List.of(
      new Family("etcdbr_snapshot_gc_total", "counter", List.of("kind", "succeeded"), 6),
      new Family("etcdbr_snapshot_latest_revision", "gauge", List.of("kind"), 3),
      new Family("etcdbr_snapshot_latest_timestamp", "gauge", List.of("kind"), 3),
      new Family("etcdbr_snapshot_required", "gauge", List.of("kind"), 3),
      new Family("etcdbr_snapshot_duration_seconds", "histogram",
          List.of("kind", "succeeded"), 6),
      new Family("etcdbr_validation_duration_seconds", "histogram", List.of("succeeded"), 2),
      new Family("etcdbr_restoration_duration_seconds", "histogram",
          List.of("restore", "succeeded"), 4),
      new Family("etcdbr_defragmentation_duration_seconds", "histogram",
          List.of("endpoint", "succeeded"), 2),
      new Family("etcdbr_snapstore_latest_deltas_total", "gauge", List.of(), 1),
      new Family("etcdbr_snapstore_latest_deltas_revisions_total", "gauge", List.of(), 1),
      new Family("etcdbr_snapshotter_failure", "counter", List.of("error"), 1),
      new Family("etcdbr_cluster_size", "gauge", List.of(), 1),
      new Family("etcdbr_is_learner", "gauge", List.of(), 1),
      new Family("etcdbr_is_learner_count_total", "counter", List.of("succeeded"), 2),
      new Family("etcdbr_add_learner_duration_seconds", "histogram", List.of("succeeded"), 2),
      new Family("etcdbr_member_remove_duration_seconds", "histogram", List.of("succeeded"), 2),
      new Family("etcdbr_member_promote_duration_seconds", "histogram", List.of("succeeded"), 2),
      new Family("etcdbr_network_transmitted_bytes", "counter", List.of(), 1),
      new Family("etcdbr_network_received_bytes", "counter", List.of(), 1));

  /** Go's prometheus.DefBuckets, spelt as Go writes the le label. */
  public static final List<String> DEFAULT_BUCKETS = List.of("0.005", "0.01", "0.025", "0.05", "0.1",
      "0.25", "0.5", "1", "2.5", "5", "10", "+Inf");

  /** Gardener's allow-list for the backup-restore scrape job (pkg/component/etcd). */
  public static final List<String> GARDENER_ALLOW_LIST = List.of(
      "etcdbr_defragmentation_duration_seconds_bucket",
      "etcdbr_defragmentation_duration_seconds_count",
      "etcdbr_defragmentation_duration_seconds_sum",
      "etcdbr_network_received_bytes", "etcdbr_network_transmitted_bytes",
      "etcdbr_restoration_duration_seconds_bucket", "etcdbr_restoration_duration_seconds_count",
      "etcdbr_restoration_duration_seconds_sum", "etcdbr_snapshot_duration_seconds_bucket",
      "etcdbr_snapshot_duration_seconds_count", "etcdbr_snapshot_duration_seconds_sum",
      "etcdbr_snapshot_gc_total", "etcdbr_snapshot_latest_revision",
      "etcdbr_snapshot_latest_timestamp", "etcdbr_snapshot_required",
      "etcdbr_validation_duration_seconds_bucket", "etcdbr_validation_duration_seconds_count",
      "etcdbr_validation_duration_seconds_sum", "etcdbr_snapshotter_failure",
      "etcdbr_cluster_size", "etcdbr_is_learner", "etcdbr_is_learner_count_total",
      "etcdbr_add_learner_duration_seconds_bucket", "etcdbr_add_learner_duration_seconds_sum",
      "etcdbr_member_remove_duration_seconds_bucket", "etcdbr_member_remove_duration_seconds_sum",
      "etcdbr_member_promote_duration_seconds_bucket",
      "etcdbr_member_promote_duration_seconds_sum",
      "process_resident_memory_bytes", "process_cpu_seconds_total", "process_max_fds",
      "process_open_fds");

  private UpstreamMetrics() {
  }
}
