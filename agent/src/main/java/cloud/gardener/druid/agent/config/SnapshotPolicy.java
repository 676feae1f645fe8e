package cloud.gardener.druid.agent.config;

import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.v1alpha1.GarbageCollectionPolicy;
import java.time.Duration;

/** When snapshots are taken and how long they are kept ({@code spec.backup}). */
public record SnapshotPolicy(
    CronSchedule fullSchedule,
    Duration deltaPeriod,
    long deltaMemoryLimitBytes,
    SnapshotCompression compression,
    GarbageCollectionPolicy gcPolicy,
    int maxBackups,
    Duration gcPeriod,
    Duration deltaRetention) {
}
