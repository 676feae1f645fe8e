package cloud.gardener.druid.agent.metrics;

import cloud.gardener.druid.agent.snapshot.SnapshotListener;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotChain;
import java.time.Duration;
import java.util.List;

/** Reports the snapshotter's and garbage collection's events to {@link BackupRestoreMetrics}. */
public final class SnapshotMetrics implements SnapshotListener {

  private final BackupRestoreMetrics metrics;

  public SnapshotMetrics(BackupRestoreMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void written(Snapshot snapshot) {
    metrics.snapshotWritten(snapshot);
  }

  @Override
  public void failed(Snapshot.Kind kind, Exception error) {
    metrics.snapshotterFailed(error);
  }

  @Override
  public void timed(Snapshot.Kind kind, boolean succeeded, Duration took) {
    metrics.snapshotTimed(kind, succeeded, took);
  }

  @Override
  public void resumed(Snapshot latestFull, List<Snapshot> deltasAfter) {
    metrics.storeResumed(latestFull, deltasAfter);
  }

  @Override
  public void eventsBuffered() {
    metrics.eventsBuffered();
  }

  @Override
  public void collected(Snapshot snapshot, Exception error) {
    metrics.garbageCollected(BackupRestoreMetrics.kind(snapshot.kind()), error == null);
    if (error != null) {
      metrics.snapshotterFailed(error);
    }
  }

  @Override
  public void chainGap(SnapshotChain.Gap gap) {
    metrics.chainGap();
  }

  @Override
  public void abandonedUploadsCollected(int count) {
    for (int i = 0; i < count; i++) {
      metrics.garbageCollected(BackupRestoreMetrics.KIND_CHUNK, true);
    }
  }
}
