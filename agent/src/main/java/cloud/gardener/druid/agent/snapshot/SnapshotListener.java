package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.store.Snapshot;

/** Told about every snapshot written or failed (metrics, snapshot leases). */
public interface SnapshotListener {

  void written(Snapshot snapshot);

  void failed(Snapshot.Kind kind, Exception error);

  SnapshotListener NONE = new SnapshotListener() {
    @Override
    public void written(Snapshot snapshot) {
    }

    @Override
    public void failed(Snapshot.Kind kind, Exception error) {
    }
  };
}
