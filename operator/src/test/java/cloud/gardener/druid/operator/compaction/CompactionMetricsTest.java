package cloud.gardener.druid.operator.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.operator.metrics.OperatorMetrics;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CompactionMetricsTest {

  @Test
  void upstreamsFamiliesWithItsLabelsAndBuckets() {
    try (OperatorMetrics operator = new OperatorMetrics()) {
      CompactionMetrics metrics = new CompactionMetrics(operator.registry());
      metrics.deltaEvents("shoot--a", "etcd-main", 1200);
      metrics.deltaEvents("shoot--a", "etcd-events", 300);
      metrics.jobRunning("shoot--a", "etcd-main", true);
      metrics.jobRunning("shoot--a", "etcd-main", false);
      metrics.jobFinished("shoot--a", true, "none", Duration.ofSeconds(200));
      metrics.fullSnapshotTriggered("shoot--a", false);

      String scrape = operator.scrape();
      assertThat(scrape)
          .contains("# TYPE etcddruid_compaction_jobs_total counter")
          .contains("etcddruid_compaction_jobs_total{etcd_namespace=\"shoot--a\",failureReason=\"none\",succeeded=\"true\"} 1.0")
          .contains("etcddruid_compaction_jobs_total{etcd_namespace=\"shoot--a\",failureReason=\"deadlineExceeded\",succeeded=\"false\"} 0.0")
          .contains("# TYPE etcddruid_compaction_full_snapshot_triggered_total counter")
          .contains("etcddruid_compaction_full_snapshot_triggered_total{etcd_namespace=\"shoot--a\",succeeded=\"false\"} 1.0")
          .contains("# TYPE etcddruid_compaction_jobs_current gauge")
          .contains("etcddruid_compaction_jobs_current{etcd_namespace=\"shoot--a\"} 0.0")
          .contains("# TYPE etcddruid_compaction_num_delta_events gauge")
          .contains("etcddruid_compaction_num_delta_events{etcd_namespace=\"shoot--a\"} 1200.0")
          .contains("# TYPE etcddruid_compaction_job_duration_seconds histogram")
          .contains("etcddruid_compaction_job_duration_seconds_bucket{etcd_namespace=\"shoot--a\",failureReason=\"none\",succeeded=\"true\",le=\"60.0\"} 0")
          .contains("etcddruid_compaction_job_duration_seconds_bucket{etcd_namespace=\"shoot--a\",failureReason=\"none\",succeeded=\"true\",le=\"300.0\"} 1")
          .contains("le=\"1800.0\"");
    }
  }
}
