package cloud.gardener.druid.devtools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the chaos run's clients saw, in the order they saw it: every answer a writer got (its
 * header revision), every acknowledged write, every event of the watch, every cluster ID and
 * member list the monitor read. {@link HistoryChecks} judges a {@link Snapshot} of it.
 */
final class ChaosHistory {

  /** A write etcd acknowledged: {@code key} was put at {@code revision}. */
  record Ack(String client, String key, long revision) {
  }

  /** One answer to {@code client}, in its order; {@code put} for writes, else a read. */
  record Answer(String client, boolean put, long revision) {
  }

  /** One event the watch delivered. */
  record Event(String key, long modRevision) {
  }

  /** One member list as a member answered it. */
  record Membership(int members, int learners) {
  }

  /**
   * Everything recorded; {@code finalRead} maps every key under the run's prefix to its
   * modRevision as read once the cluster healed after the last round.
   */
  record Snapshot(long watchFrom, List<Answer> answers, List<Ack> acks, List<Event> events,
      List<String> watchInterruptions, Set<Long> clusterIds, List<Membership> memberships,
      Map<String, Long> finalRead) {
  }

  private final long watchFrom;
  private final List<Answer> answers = new ArrayList<>();
  private final List<Ack> acks = new ArrayList<>();
  private final List<Event> events = new ArrayList<>();
  private final List<String> watchInterruptions = new ArrayList<>();
  private final Set<Long> clusterIds = new TreeSet<>();
  private final List<Membership> memberships = new ArrayList<>();
  private final List<String> failedWrites = new ArrayList<>();

  ChaosHistory(long watchFrom) {
    this.watchFrom = watchFrom;
  }

  synchronized void answered(String client, boolean put, long revision) {
    answers.add(new Answer(client, put, revision));
  }

  synchronized void acknowledged(String client, String key, long revision) {
    acks.add(new Ack(client, key, revision));
    answers.add(new Answer(client, true, revision));
  }

  /** A write without an answer ({@code reason}): it may or may not have been applied. */
  synchronized void writeFailed(String reason) {
    failedWrites.add(reason);
  }

  synchronized void delivered(String key, long modRevision) {
    events.add(new Event(key, modRevision));
  }

  /**
   * The watch client reported an error: jetcd does so for every broken stream and then
   * resumes from the revision after the last event it delivered, unless the error is final;
   * either way the events themselves show whether anything was missed or repeated.
   */
  synchronized void watchInterrupted(String error) {
    watchInterruptions.add(error);
  }

  synchronized void clusterId(long id) {
    clusterIds.add(id);
  }

  synchronized void membership(int members, int learners) {
    memberships.add(new Membership(members, learners));
  }

  synchronized int acknowledgedWrites() {
    return acks.size();
  }

  synchronized int failedWrites() {
    return failedWrites.size();
  }

  /** Why the writes from the {@code from}-th failed write on failed, each reason once. */
  synchronized List<String> failureReasons(int from) {
    return failedWrites.subList(Math.min(from, failedWrites.size()), failedWrites.size())
        .stream().distinct().toList();
  }

  synchronized int deliveredEvents() {
    return events.size();
  }

  /** The highest modRevision the watch delivered so far; {@code watchFrom - 1} when none. */
  synchronized long newestEvent() {
    return events.stream().mapToLong(Event::modRevision).max().orElse(watchFrom - 1);
  }

  synchronized Snapshot snapshot(Map<String, Long> finalRead) {
    return new Snapshot(watchFrom, List.copyOf(answers), List.copyOf(acks), List.copyOf(events),
        List.copyOf(watchInterruptions), Set.copyOf(clusterIds), List.copyOf(memberships),
        Map.copyOf(finalRead));
  }
}
