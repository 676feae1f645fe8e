package cloud.gardener.druid.agent.pitr;

import cloud.gardener.druid.agent.pitr.RetainedHistory.Span;
import cloud.gardener.druid.agent.snapshot.Compressions;
import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the delta snapshots say about the retained history, read event by event with their
 * times: the revision at a moment, and the revisions at which keys under a prefix were
 * deleted. An event's time is when the leader's agent received it from etcd's watch (as in
 * etcd-backup-restore), within milliseconds of its commit.
 */
public final class DeltaHistory {

  /** The keys under a prefix deleted at one revision. */
  public record Deletion(long revision, Instant time, int keys, String firstKey) {
  }

  private final SnapshotStore store;
  private final RetainedHistory history;

  public DeltaHistory(SnapshotStore store, RetainedHistory history) {
    this.store = store;
    this.history = history;
  }

  /** The revision a point in time names, refused when outside the retained history. */
  public long revisionOf(PointInTime at) throws PitrException, IOException {
    if (at instanceof PointInTime.AtRevision r) {
      return r.revision();
    }
    return revisionAt(((PointInTime.AtTime) at).time());
  }

  /**
   * The revision of the last event not after {@code time}: from the span {@link #spanAt}
   * chooses, the events of its deltas up to {@code time}. A delta named at least a second
   * before {@code time} holds only earlier events and is not read.
   */
  long revisionAt(Instant time) throws PitrException, IOException {
    Span span = spanAt(time);
    long revision = span.from();
    for (Snapshot delta : span.deltas()) {
      if (!delta.createdOn().plusSeconds(1).isAfter(time)) {
        revision = delta.endRevision();
        continue;
      }
      for (DeltaEvent event : read(delta)) {
        if (event.time().isAfter(time)) {
          return revision;
        }
        revision = event.modRevision();
      }
    }
    return revision;
  }

  /**
   * The newest span whose full snapshot was taken by {@code time}. A full snapshot's name gives
   * whole seconds, so one named before {@code time}'s second certainly was; one named in that
   * second counts unless the span before it holds an event received after {@code time} (the
   * snapshot came after that event). Several full snapshots in one second happen on a quiet,
   * fast machine.
   */
  private Span spanAt(Instant time) throws PitrException, IOException {
    List<Span> named = history.spans().stream().filter(s -> !s.fromTime().isAfter(time))
        .sorted(Comparator.comparingLong(Span::from)).toList();
    if (named.isEmpty()) {
      throw new PitrException("time " + time + " is before the retained history: "
          + history.describe());
    }
    Span chosen = named.get(0);
    for (Span next : named.subList(1, named.size())) {
      boolean certain = !next.fromTime().plusSeconds(1).isAfter(time);
      if (!certain && receivedAfter(chosen, next.from(), time)) {
        break;
      }
      chosen = next;
    }
    return chosen;
  }

  /**
   * Whether {@code span}'s deltas hold an event up to revision {@code upTo} received after
   * {@code time}.
   */
  private boolean receivedAfter(Span span, long upTo, Instant time) throws IOException {
    for (Snapshot delta : span.deltas()) {
      if (delta.startRevision() > upTo) {
        break;
      }
      for (DeltaEvent event : read(delta)) {
        if (event.modRevision() <= upTo && event.time().isAfter(time)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Deletions of keys under {@code prefix} in every retained delta, oldest first. */
  public List<Deletion> deletions(String prefix) throws IOException {
    byte[] p = prefix.getBytes(StandardCharsets.UTF_8);
    Map<Long, Deletion> byRevision = new LinkedHashMap<>();
    for (Snapshot delta : retainedDeltas()) {
      for (DeltaEvent e : read(delta)) {
        if (e.isDelete() && startsWith(e.key(), p)) {
          byRevision.merge(e.modRevision(), new Deletion(e.modRevision(), e.time(), 1,
              new String(e.key(), StandardCharsets.UTF_8)), (a, b) ->
              new Deletion(a.revision(), a.time(), a.keys() + 1, a.firstKey()));
        }
      }
    }
    return new ArrayList<>(byRevision.values());
  }

  /** Every delta of every span, each once, in revision order. */
  private List<Snapshot> retainedDeltas() {
    Map<String, Snapshot> deltas = new LinkedHashMap<>();
    history.spans().forEach(s -> s.deltas().forEach(d -> deltas.putIfAbsent(d.fileName(), d)));
    return deltas.values().stream().sorted(Snapshot.ORDER).toList();
  }

  private List<DeltaEvent> read(Snapshot delta) throws IOException {
    try (InputStream raw = store.open(delta);
        InputStream in = Compressions.decompress(delta, raw)) {
      return DeltaFormat.readTimed(in, "delta snapshot " + delta);
    }
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }
}
