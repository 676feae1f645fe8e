package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.devtools.bench.ChaosHistory.Ack;
import cloud.gardener.druid.devtools.bench.ChaosHistory.Answer;
import cloud.gardener.druid.devtools.bench.ChaosHistory.Event;
import cloud.gardener.druid.devtools.bench.ChaosHistory.Membership;
import cloud.gardener.druid.devtools.bench.ChaosHistory.Snapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks over a chaos run's whole history, each stated precisely (no linearizability
 * checker on Maven Central judges etcd histories: Knossos and Elle are Clojure libraries on
 * Clojars, Porcupine is Go, Lincheck runs JVM data structures itself):
 * <ol>
 *   <li><b>no acknowledged write lost:</b> every key a write was acknowledged for is read at
 *       the end with the acknowledged revision as its modRevision (keys are written once; a
 *       write the client library retried may have been applied again, at a higher revision:
 *       then the key's first event carries the acknowledged revision);</li>
 *   <li><b>revisions only grow per client:</b> each answer's header revision is at least the
 *       previous answer's of the same client, and each acknowledged write's revision is
 *       higher than that client's previous acknowledged write's;</li>
 *   <li><b>the watch delivers every event exactly once:</b> no (key, modRevision) twice,
 *       modRevisions in increasing order, and every key read at the end with a modRevision
 *       after the watch's start has an event with that modRevision; no event for a key that
 *       is not there (the watch client's interruptions are counted, not judged: the events
 *       show whether it resumed where it stopped);</li>
 *   <li><b>one cluster ID</b> in every answer of every member throughout;</li>
 *   <li><b>member count bound:</b> no member list holds more than {@code replicas} voting
 *       members plus one learner.</li>
 * </ol>
 * The rollout predicate (the operator's {@code RolloutRecorder}) and the heal bound are
 * checked by the run; their results join these in {@link Check} lines.
 */
final class HistoryChecks {

  /** One check's outcome: its name, whether it held, and the evidence in a few words. */
  record Check(String name, boolean held, String detail) {

    String line() {
      return (held ? "ok    " : "FAILED") + " " + name + ": " + detail;
    }
  }

  private static final int SHOWN = 5;

  private HistoryChecks() {
  }

  static List<Check> check(Snapshot s, int replicas) {
    return List.of(noAcknowledgedWriteLost(s), revisionsOnlyGrow(s), watchExactlyOnce(s),
        oneClusterId(s), memberCountBound(s, replicas));
  }

  static Check noAcknowledgedWriteLost(Snapshot s) {
    Map<String, Long> firstEvent = new HashMap<>();
    s.events().forEach(e -> firstEvent.merge(e.key(), e.modRevision(), Math::min));
    List<String> lost = new ArrayList<>();
    for (Ack ack : s.acks()) {
      Long now = s.finalRead().get(ack.key());
      boolean kept = now != null && (now == ack.revision()
          || now > ack.revision() && Long.valueOf(ack.revision()).equals(firstEvent.get(ack.key())));
      if (!kept) {
        lost.add(ack.key() + "@" + ack.revision() + (now == null ? " missing" : " read @" + now));
      }
    }
    return new Check("no acknowledged write lost", lost.isEmpty(), lost.isEmpty()
        ? s.acks().size() + " acknowledged writes all read back"
        : lost.size() + " of " + s.acks().size() + " lost: " + first(lost));
  }

  static Check revisionsOnlyGrow(Snapshot s) {
    Map<String, Long> lastAnswer = new HashMap<>();
    Map<String, Long> lastPut = new HashMap<>();
    List<String> backwards = new ArrayList<>();
    for (Answer a : s.answers()) {
      Long previous = lastAnswer.put(a.client(), a.revision());
      if (previous != null && a.revision() < previous) {
        backwards.add(a.client() + ": " + previous + " then " + a.revision());
      }
      if (a.put()) {
        Long previousPut = lastPut.put(a.client(), a.revision());
        if (previousPut != null && a.revision() <= previousPut) {
          backwards.add(a.client() + ": write @" + previousPut + " then write @" + a.revision());
        }
      }
    }
    return new Check("revisions only grow per client", backwards.isEmpty(), backwards.isEmpty()
        ? s.answers().size() + " answers to " + lastAnswer.size() + " clients in order"
        : backwards.size() + " steps back: " + first(backwards));
  }

  static Check watchExactlyOnce(Snapshot s) {
    List<String> problems = new ArrayList<>();
    Set<Event> seen = new HashSet<>();
    long previous = Long.MIN_VALUE;
    for (Event e : s.events()) {
      if (!seen.add(e)) {
        problems.add("duplicate " + e.key() + "@" + e.modRevision());
      } else if (e.modRevision() < previous) {
        problems.add("out of order " + e.key() + "@" + e.modRevision() + " after @" + previous);
      }
      previous = Math.max(previous, e.modRevision());
      if (!s.finalRead().containsKey(e.key())) {
        problems.add("event for absent key " + e.key() + "@" + e.modRevision());
      }
    }
    s.finalRead().forEach((key, rev) -> {
      if (rev >= s.watchFrom() && !seen.contains(new Event(key, rev))) {
        problems.add("missed " + key + "@" + rev);
      }
    });
    return new Check("watch from revision " + s.watchFrom() + " delivers every event once",
        problems.isEmpty(), problems.isEmpty()
            ? s.events().size() + " events, none missed, none twice" + interruptions(s)
            : problems.size() + " problems: " + first(problems) + interruptions(s));
  }

  static Check oneClusterId(Snapshot s) {
    return new Check("one cluster ID", s.clusterIds().size() == 1, s.clusterIds().isEmpty()
        ? "no answer recorded" : s.clusterIds().size() + " seen: " + s.clusterIds().stream()
            .map(Long::toHexString).toList());
  }

  static Check memberCountBound(Snapshot s, int replicas) {
    List<Membership> over = s.memberships().stream()
        .filter(m -> m.members() - m.learners() > replicas || m.learners() > 1).toList();
    int most = s.memberships().stream().mapToInt(Membership::members).max().orElse(0);
    return new Check("at most " + replicas + " voting members and one learner", over.isEmpty()
        && !s.memberships().isEmpty(), s.memberships().size() + " member lists, largest "
        + most + (over.isEmpty() ? "" : "; over the bound: " + first(over.stream()
            .map(m -> m.members() + " with " + m.learners() + " learners").toList())));
  }

  private static String interruptions(Snapshot s) {
    return s.watchInterruptions().isEmpty() ? "" : "; resumed after "
        + s.watchInterruptions().size() + " interruptions ("
        + first(s.watchInterruptions().stream().distinct().toList()) + ")";
  }

  private static String first(List<String> items) {
    return String.join(", ", items.subList(0, Math.min(SHOWN, items.size())))
        + (items.size() > SHOWN ? ", …" : "");
  }
}
