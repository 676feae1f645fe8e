package cloud.gardener.druid.operator.agent;

import java.time.Instant;

/**
 * How far the snapshot an agent writes (or wrote last) is, as its {@code /snapshot/progress}
 * says: {@code kind} "full" or "delta", bytes read from etcd of an estimated total (0 when
 * unknown).
 */
public record SnapshotProgress(String kind, long bytesDone, long bytesTotal, Instant startedAt,
    boolean running) {
}
