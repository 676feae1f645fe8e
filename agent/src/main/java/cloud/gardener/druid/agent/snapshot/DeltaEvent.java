package cloud.gardener.druid.agent.snapshot;

import java.time.Instant;

/** One watch event of a delta snapshot: a put or delete of {@code key} at {@code modRevision}. */
public record DeltaEvent(
    boolean isDelete, byte[] key, byte[] value, long createRevision, long modRevision,
    long version, long lease, Instant time) {

  public static DeltaEvent put(byte[] key, byte[] value, long createRevision, long modRevision,
      long version, long lease, Instant time) {
    return new DeltaEvent(false, key, value, createRevision, modRevision, version, lease, time);
  }

  public static DeltaEvent delete(byte[] key, long modRevision, Instant time) {
    return new DeltaEvent(true, key, new byte[0], 0, modRevision, 0, 0, time);
  }

  /** Rough heap cost, for {@code deltaSnapshotMemoryLimit}. */
  public long approximateSize() {
    return key.length + value.length + 64L;
  }
}
