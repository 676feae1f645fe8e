package cloud.gardener.druid.operator.compaction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Upstream etcd-druid's compaction metrics, with its names, label names and values and
 * histogram buckets: {@code etcddruid_compaction_jobs_total{succeeded,failureReason,etcd_namespace}},
 * {@code etcddruid_compaction_full_snapshot_triggered_total{succeeded,etcd_namespace}},
 * {@code etcddruid_compaction_jobs_current{etcd_namespace}},
 * {@code etcddruid_compaction_job_duration_seconds{succeeded,failureReason,etcd_namespace}} and
 * {@code etcddruid_compaction_num_delta_events{etcd_namespace}}. Upstream keeps one value per
 * namespace (Gardener runs one compacted Etcd per namespace); with several Etcds in a
 * namespace, the current jobs are summed and the delta events are the largest.
 */
public final class CompactionMetrics {

  public static final String JOBS_TOTAL = "etcddruid_compaction_jobs_total";
  public static final String JOBS_CURRENT = "etcddruid_compaction_jobs_current";
  public static final String JOB_DURATION = "etcddruid_compaction_job_duration_seconds";
  public static final String NUM_DELTA_EVENTS = "etcddruid_compaction_num_delta_events";
  public static final String FULL_SNAPSHOTS_TRIGGERED =
      "etcddruid_compaction_full_snapshot_triggered_total";
  static final String NAMESPACE = "etcd_namespace";
  static final String SUCCEEDED = "succeeded";
  static final String FAILURE_REASON = "failureReason";
  /** Upstream's values of {@code failureReason}. */
  static final List<String> FAILURE_REASONS = List.of("preempted", "evicted",
      "deadlineExceeded", "processFailure", "unknown", "none");
  private static final Duration BASE = Duration.ofSeconds(60);

  private final MeterRegistry registry;
  private final Set<String> namespaces = ConcurrentHashMap.newKeySet();
  /** Per Etcd ({@code namespace/name}): 1 while its Job runs. */
  private final Map<String, Integer> running = new ConcurrentHashMap<>();
  private final Map<String, Long> deltaEvents = new ConcurrentHashMap<>();

  public CompactionMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void jobRunning(String namespace, String etcd, boolean isRunning) {
    register(namespace);
    running.put(namespace + "/" + etcd, isRunning ? 1 : 0);
  }

  void deltaEvents(String namespace, String etcd, long events) {
    register(namespace);
    deltaEvents.put(namespace + "/" + etcd, events);
  }

  void jobFinished(String namespace, boolean succeeded, String failureReason,
      Duration duration) {
    register(namespace);
    counter(namespace, succeeded, failureReason).increment();
    timer(namespace, succeeded, failureReason).record(duration);
  }

  /** A Job that could not be created counts as failed, as upstream counts it. */
  void jobNotCreated(String namespace) {
    register(namespace);
    counter(namespace, false, "unknown").increment();
  }

  void fullSnapshotTriggered(String namespace, boolean succeeded) {
    register(namespace);
    triggered(namespace, succeeded).increment();
  }

  void forget(String namespace, String etcd) {
    running.remove(namespace + "/" + etcd);
    deltaEvents.remove(namespace + "/" + etcd);
  }

  /** Every series of a namespace from the first time it is seen, as upstream initialises them. */
  private void register(String namespace) {
    if (!namespaces.add(namespace)) {
      return;
    }
    for (boolean succeeded : new boolean[] {true, false}) {
      triggered(namespace, succeeded);
      for (String reason : FAILURE_REASONS) {
        counter(namespace, succeeded, reason);
        timer(namespace, succeeded, reason);
      }
    }
    Gauge.builder(JOBS_CURRENT, () -> sum(running, namespace))
        .description("Number of currently running compaction jobs.")
        .tag(NAMESPACE, namespace).register(registry);
    Gauge.builder(NUM_DELTA_EVENTS, () -> max(deltaEvents, namespace))
        .description("Total number of etcd events to be compacted by a compaction job.")
        .tag(NAMESPACE, namespace).register(registry);
  }

  private Counter counter(String namespace, boolean succeeded, String failureReason) {
    return Counter.builder(withoutSuffix(JOBS_TOTAL, "_total"))
        .description("Total number of compaction jobs initiated by compaction controller.")
        .tag(SUCCEEDED, Boolean.toString(succeeded)).tag(FAILURE_REASON, failureReason)
        .tag(NAMESPACE, namespace).register(registry);
  }

  private Counter triggered(String namespace, boolean succeeded) {
    return Counter.builder(withoutSuffix(FULL_SNAPSHOTS_TRIGGERED, "_total"))
        .description("Total number of full snapshot triggered by compaction controller.")
        .tag(SUCCEEDED, Boolean.toString(succeeded)).tag(NAMESPACE, namespace)
        .register(registry);
  }

  private static String withoutSuffix(String name, String suffix) {
    return name.substring(0, name.length() - suffix.length());
  }

  private Timer timer(String namespace, boolean succeeded, String failureReason) {
    return Timer.builder(withoutSuffix(JOB_DURATION, "_seconds"))
        .description("Total time taken in seconds to finish a running compaction job.")
        .serviceLevelObjectives(BASE, BASE.multipliedBy(5), BASE.multipliedBy(10),
            BASE.multipliedBy(15), BASE.multipliedBy(20), BASE.multipliedBy(30))
        .tag(SUCCEEDED, Boolean.toString(succeeded)).tag(FAILURE_REASON, failureReason)
        .tag(NAMESPACE, namespace).register(registry);
  }

  private static double sum(Map<String, ? extends Number> values, String namespace) {
    return values.entrySet().stream().filter(e -> e.getKey().startsWith(namespace + "/"))
        .mapToDouble(e -> e.getValue().doubleValue()).sum();
  }

  private static double max(Map<String, ? extends Number> values, String namespace) {
    return values.entrySet().stream().filter(e -> e.getKey().startsWith(namespace + "/"))
        .mapToDouble(e -> e.getValue().doubleValue()).max().orElse(0);
  }
}
