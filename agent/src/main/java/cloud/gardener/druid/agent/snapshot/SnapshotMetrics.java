package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.store.Snapshot;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Prometheus figures of snapshots: counts by kind and result, newest revision and time. */
public final class SnapshotMetrics implements SnapshotListener {

  private final MeterRegistry registry;
  private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();

  public SnapshotMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void written(Snapshot snapshot) {
    String kind = kind(snapshot.kind());
    count(kind, "succeeded");
    gauge("druid_agent_snapshot_latest_revision", kind).set(snapshot.endRevision());
    gauge("druid_agent_snapshot_latest_timestamp_seconds", kind)
        .set(snapshot.createdOn().getEpochSecond());
  }

  @Override
  public void failed(Snapshot.Kind kind, Exception error) {
    count(kind(kind), "failed");
  }

  private static String kind(Snapshot.Kind kind) {
    return kind == Snapshot.Kind.FULL ? "full" : "delta";
  }

  private void count(String kind, String result) {
    Counter.builder("druid_agent_snapshots").tag("kind", kind).tag("result", result)
        .register(registry).increment();
  }

  private AtomicLong gauge(String name, String kind) {
    return gauges.computeIfAbsent(name + kind,
        k -> registry.gauge(name, io.micrometer.core.instrument.Tags.of("kind", kind),
            new AtomicLong()));
  }
}
