package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotChain;
import java.time.Duration;
import java.util.List;

/** Told about every snapshot written or failed and every garbage collection (metrics, leases). */
public interface SnapshotListener {

  void written(Snapshot snapshot);

  void failed(Snapshot.Kind kind, Exception error);

  /** A snapshot attempt of {@code kind} ended after {@code took}. */
  default void timed(Snapshot.Kind kind, boolean succeeded, Duration took) {
  }

  /** The store's newest full snapshot and the deltas after it, when this member starts writing. */
  default void resumed(Snapshot latestFull, List<Snapshot> deltasAfter) {
  }

  /** Events that no snapshot holds yet wait in the delta buffer. */
  default void eventsBuffered() {
  }

  /** Garbage collection deleted {@code snapshot}, or failed to ({@code error} not null). */
  default void collected(Snapshot snapshot, Exception error) {
  }

  /** The store's newest chain has {@code gap}; a full snapshot follows. */
  default void chainGap(SnapshotChain.Gap gap) {
  }

  /** Garbage collection deleted the parts of {@code count} unfinished uploads. */
  default void abandonedUploadsCollected(int count) {
  }

  /** This listener and {@code other}, both told about everything. */
  default SnapshotListener and(SnapshotListener other) {
    SnapshotListener self = this;
    return new SnapshotListener() {
      @Override
      public void written(Snapshot snapshot) {
        self.written(snapshot);
        other.written(snapshot);
      }

      @Override
      public void failed(Snapshot.Kind kind, Exception error) {
        self.failed(kind, error);
        other.failed(kind, error);
      }

      @Override
      public void timed(Snapshot.Kind kind, boolean succeeded, Duration took) {
        self.timed(kind, succeeded, took);
        other.timed(kind, succeeded, took);
      }

      @Override
      public void resumed(Snapshot latestFull, List<Snapshot> deltasAfter) {
        self.resumed(latestFull, deltasAfter);
        other.resumed(latestFull, deltasAfter);
      }

      @Override
      public void eventsBuffered() {
        self.eventsBuffered();
        other.eventsBuffered();
      }

      @Override
      public void collected(Snapshot snapshot, Exception error) {
        self.collected(snapshot, error);
        other.collected(snapshot, error);
      }

      @Override
      public void chainGap(SnapshotChain.Gap gap) {
        self.chainGap(gap);
        other.chainGap(gap);
      }

      @Override
      public void abandonedUploadsCollected(int count) {
        self.abandonedUploadsCollected(count);
        other.abandonedUploadsCollected(count);
      }
    };
  }

  SnapshotListener NONE = new SnapshotListener() {
    @Override
    public void written(Snapshot snapshot) {
    }

    @Override
    public void failed(Snapshot.Kind kind, Exception error) {
    }
  };
}
