package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.api.agent.SnapshotInfo;

/** A snapshot of the store as the agent API shows it. */
final class SnapshotInfos {

  private SnapshotInfos() {
  }

  static SnapshotInfo of(Snapshot s) {
    return new SnapshotInfo(s.isFull() ? "Full" : "Incr", s.fileName(), s.startRevision(),
        s.endRevision(), s.createdOn().toString(),
        s.compression() != Snapshot.Compression.NONE, s.isFinal());
  }
}
