package cloud.gardener.druid.operator.drill;

import cloud.gardener.druid.api.verify.DrillReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Restore drill metrics per Etcd (additions, docs/backup-verification.md), from the newest
 * report in its verification lease:
 * {@value #SINCE_VERIFIED} (seconds since the last drill that proved the backups),
 * {@value #RESTORE} (the last drill's restore of the chain: the measured time to recover),
 * {@value #DRILL} (the whole last drill), {@value #DATA_LOSS_WINDOW} (seconds since the newest
 * proven snapshot was written: what a restore now could not prove) and {@value #DRILLS} by
 * outcome.
 */
public final class DrillMetrics {

  public static final String SINCE_VERIFIED =
      "etcddruid_backup_verification_seconds_since_last_verified";
  public static final String RESTORE = "etcddruid_backup_verification_restore_seconds";
  public static final String DRILL = "etcddruid_backup_verification_drill_seconds";
  public static final String DATA_LOSS_WINDOW =
      "etcddruid_backup_verification_data_loss_window_seconds";
  public static final String DRILLS = "etcddruid_backup_verification_drills_total";

  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<String, State> etcds = new ConcurrentHashMap<>();

  /** What the gauges of one Etcd read. */
  private static final class State {
    volatile Instant lastVerified;
    volatile Instant verifiedSnapshot;
    volatile double restoreSeconds;
    volatile double drillSeconds;
    volatile String lastCounted;
  }

  public DrillMetrics(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  /** Takes in the newest report of {@code namespace/etcd} (counted once per drill). */
  public void report(String namespace, String etcd, DrillReport r) {
    State s = etcds.computeIfAbsent(namespace + "/" + etcd, k -> register(namespace, etcd));
    if (r.finishedAt() == null || r.finishedAt().equals(s.lastCounted)) {
      return;
    }
    s.lastCounted = r.finishedAt();
    s.drillSeconds = r.durationMillis() / 1000.0;
    s.restoreSeconds = r.restoreMillis() / 1000.0;
    if (r.outcome() == DrillReport.Outcome.VERIFIED) {
      s.lastVerified = Instant.parse(r.finishedAt());
      s.verifiedSnapshot = Optional.ofNullable(r.verifiedSnapshotTime()).map(Instant::parse)
          .orElse(null);
    }
    drills(namespace, etcd, r.outcome()).increment();
  }

  private State register(String namespace, String etcd) {
    State s = new State();
    gauge(SINCE_VERIFIED, namespace, etcd, s, st -> since(st.lastVerified));
    gauge(DATA_LOSS_WINDOW, namespace, etcd, s, st -> since(st.verifiedSnapshot));
    gauge(RESTORE, namespace, etcd, s, st -> st.restoreSeconds);
    gauge(DRILL, namespace, etcd, s, st -> st.drillSeconds);
    // every outcome from zero: an alert on an increase of FAILED sees the first failure
    for (DrillReport.Outcome outcome : DrillReport.Outcome.values()) {
      drills(namespace, etcd, outcome);
    }
    return s;
  }

  private Counter drills(String namespace, String etcd, DrillReport.Outcome outcome) {
    return Counter.builder(DRILLS).tag("etcd_namespace", namespace).tag("etcd", etcd)
        .tag("outcome", outcome.name()).register(registry);
  }

  private void gauge(String name, String namespace, String etcd, State s,
      java.util.function.ToDoubleFunction<State> value) {
    Gauge.builder(name, s, value).tag("etcd_namespace", namespace).tag("etcd", etcd)
        .register(registry);
  }

  /** NaN before the first proof. */
  private double since(Instant then) {
    return then == null ? Double.NaN : Duration.between(then, clock.instant()).toMillis() / 1000.0;
  }
}
