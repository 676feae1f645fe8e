package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.store.Snapshot;

/** A snapshot as the HTTP API shows it. */
record SnapshotView(
    String kind, String name, long startRevision, long endRevision, String createdOn,
    boolean compressed, boolean isFinal) {

  static SnapshotView of(Snapshot s) {
    return new SnapshotView(s.isFull() ? "Full" : "Incr", s.fileName(), s.startRevision(),
        s.endRevision(), s.createdOn().toString(),
        s.compression() != Snapshot.Compression.NONE, s.isFinal());
  }
}
