package cloud.gardener.druid.agent.pitr;

import cloud.gardener.druid.agent.restore.RestorePlan;
import cloud.gardener.druid.agent.store.Snapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The revisions a store can restore, from its listing alone: each full snapshot restores its
 * own revision and every revision its gap-free run of deltas after it covers. Garbage
 * collection and compaction decide what is retained; this only reads what is there.
 */
public final class RetainedHistory {

  /** Revisions {@code from..to} restorable from {@code full} and its deltas. */
  public record Span(Snapshot full, long from, long to, Instant fromTime, Instant toTime,
      List<Snapshot> deltas) {

    boolean holds(long revision) {
      return revision >= from && revision <= to;
    }

    @Override
    public String toString() {
      return from + ".." + to + " (" + fromTime + " .. " + toTime + ")";
    }
  }

  private final List<Span> spans;

  private RetainedHistory(List<Span> spans) {
    this.spans = spans;
  }

  public static RetainedHistory of(List<Snapshot> listed) {
    List<Snapshot> fulls = listed.stream().filter(Snapshot::isFull)
        .sorted(Comparator.comparingLong(Snapshot::endRevision)
            .thenComparing(Snapshot::createdOn)).toList();
    List<Snapshot> deltas = listed.stream().filter(s -> !s.isFull())
        .sorted(Comparator.comparingLong(Snapshot::startRevision)
            .thenComparingLong(Snapshot::endRevision)).toList();
    List<Span> spans = new ArrayList<>();
    for (Snapshot full : fulls) {
      spans.add(span(full, deltas));
    }
    return new RetainedHistory(spans);
  }

  private static Span span(Snapshot full, List<Snapshot> deltas) {
    List<Snapshot> chain = new ArrayList<>();
    long covered = full.endRevision();
    Instant toTime = full.createdOn();
    for (Snapshot delta : deltas) {
      if (delta.endRevision() <= covered) {
        continue;
      }
      if (delta.startRevision() > covered + 1) {
        break;
      }
      chain.add(delta);
      covered = delta.endRevision();
      toTime = delta.createdOn();
    }
    return new Span(full, full.endRevision(), covered, full.createdOn(), toTime,
        List.copyOf(chain));
  }

  public boolean isEmpty() {
    return spans.isEmpty();
  }

  public List<Span> spans() {
    return spans;
  }

  /** The oldest restorable revision, empty without a full snapshot. */
  public Optional<Span> oldest() {
    return spans.stream().findFirst();
  }

  /** The span reaching furthest (the newest full snapshot's at equal ends). */
  public Optional<Span> newest() {
    return spans.stream().max(Comparator.comparingLong(Span::to)
        .thenComparingLong(Span::from));
  }

  /** What restores revision {@code revision}: the newest full snapshot at or below it. */
  public RestorePlan planAt(long revision) throws PitrException {
    Optional<Span> span = spans.stream().filter(s -> s.holds(revision))
        .max(Comparator.comparingLong(Span::from));
    if (span.isEmpty()) {
      throw new PitrException("revision " + revision + " is outside the retained history: "
          + describe());
    }
    List<Snapshot> deltas = new ArrayList<>();
    for (Snapshot delta : span.get().deltas()) {
      if (revision <= span.get().full().endRevision()) {
        break;
      }
      deltas.add(delta);
      if (delta.endRevision() >= revision) {
        break;
      }
    }
    return new RestorePlan(span.get().full(), List.copyOf(deltas), revision);
  }

  /** The revisions that can be restored, for messages ("revisions 12..4711 (...)"). */
  public String describe() {
    if (spans.isEmpty()) {
      return "the store holds no full snapshot";
    }
    List<String> merged = new ArrayList<>();
    long from = spans.get(0).from();
    long to = spans.get(0).to();
    Instant fromTime = spans.get(0).fromTime();
    Instant toTime = spans.get(0).toTime();
    for (Span s : spans.subList(1, spans.size())) {
      if (s.from() > to + 1) {
        merged.add(from + ".." + to + " (" + fromTime + " .. " + toTime + ")");
        from = s.from();
        fromTime = s.fromTime();
      }
      if (s.to() >= to) {
        to = s.to();
        toTime = s.toTime();
      }
    }
    merged.add(from + ".." + to + " (" + fromTime + " .. " + toTime + ")");
    return "revisions " + String.join(", ", merged) + " are available";
  }
}
