package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.ByteSizes;
import cloud.gardener.druid.api.agent.SnapshotProgress;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig.SnapshotType;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentClient.AgentException;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.etcd.EventRecorder;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Takes a full or delta snapshot through the agent of etcd's leader (only the leader's agent
 * writes snapshots). Waits for a leader while the deadline allows; the agent answers once the
 * snapshot is in the store; meanwhile its progress (bytes of the database size) is polled
 * and reported.
 */
final class OnDemandSnapshotOperation implements AgentOperation {

  static final int DEFAULT_TIMEOUT_FULL = 900;
  static final int DEFAULT_TIMEOUT_DELTA = 60;
  private static final Duration POLL = Duration.ofSeconds(1);
  /** How often the agent is asked how far the snapshot is while it is written. */
  static final Duration PROGRESS_POLL = Duration.ofSeconds(2);

  private final AgentClient agents;
  private final Function<Etcd, ClusterSnapshot> observer;
  private final EventRecorder events;

  OnDemandSnapshotOperation(AgentClient agents, Function<Etcd, ClusterSnapshot> observer,
      EventRecorder events) {
    this.agents = agents;
    this.observer = observer;
    this.events = events;
  }

  @Override
  public Duration timeout(EtcdOpsTask task, Etcd etcd) {
    OnDemandSnapshotConfig c = config(task);
    Integer seconds = type(c) == SnapshotType.FULL ? c.getTimeoutSecondsFull()
        : c.getTimeoutSecondsDelta();
    return Duration.ofSeconds(seconds != null ? seconds
        : type(c) == SnapshotType.FULL ? DEFAULT_TIMEOUT_FULL : DEFAULT_TIMEOUT_DELTA);
  }

  @Override
  public String run(EtcdOpsTask task, Etcd etcd, Deadline deadline, Consumer<String> progress)
      throws TaskFailure, InterruptedException {
    OnDemandSnapshotConfig c = config(task);
    AgentEndpoint leader = awaitLeader(etcd, deadline);
    AgentClient calls = agents.withActionTimeout(deadline.left());
    String what;
    String kind = type(c) == SnapshotType.FULL ? "full" : "delta";
    try (ProgressPoller poller = ProgressPoller.start(() -> agents.snapshotProgress(leader)
        .filter(p -> p.running() && kind.equals(p.kind()))
        .map(p -> progressLine(p, leader.member())), progress, PROGRESS_POLL)) {
      if (type(c) == SnapshotType.FULL) {
        boolean isFinal = Boolean.TRUE.equals(c.getIsFinal());
        long revision = calls.fullSnapshot(leader, isFinal);
        what = (isFinal ? "final full" : "full") + " snapshot up to revision " + revision
            + " taken by the agent of " + leader.member();
      } else {
        OptionalLong revision = calls.deltaSnapshot(leader);
        what = revision.isPresent()
            ? "delta snapshot up to revision " + revision.getAsLong() + " taken by the agent of "
                + leader.member()
            : "no events since the last snapshot: the agent of " + leader.member()
                + " had no delta to write";
      }
    } catch (AgentException e) {
      events.warning(etcd, "OnDemandSnapshotFailed", "EtcdOpsTask "
          + task.getMetadata().getName() + ": " + e.getMessage());
      throw new TaskFailure(TaskError.SNAPSHOT, e.getMessage());
    }
    events.normal(etcd, "OnDemandSnapshotTaken", "EtcdOpsTask " + task.getMetadata().getName()
        + ": " + what);
    return what;
  }

  /** E.g. "full snapshot by the agent of etcd-main-0: 120.0 MiB of ~512.0 MiB". */
  static String progressLine(SnapshotProgress p, String member) {
    return p.kind() + " snapshot by the agent of " + member + ": "
        + ByteSizes.ofTotal(p.bytesDone(), p.bytesTotal(), true);
  }

  private AgentEndpoint awaitLeader(Etcd etcd, Deadline deadline)
      throws TaskFailure, InterruptedException {
    while (true) {
      ClusterSnapshot s = observer.apply(etcd);
      Optional<AgentEndpoint> endpoint = s.leader().flatMap(MemberObservation::pod)
          .flatMap(p -> AgentEndpoint.of(p, EtcdDefaults.agentPort(etcd),
              EtcdDefaults.agentTls(etcd)));
      if (endpoint.isPresent()) {
        return endpoint.get();
      }
      try {
        deadline.pause(POLL, "waiting for a leader");
      } catch (TaskFailure e) {
        throw new TaskFailure(TaskError.NO_LEADER, "no member of Etcd "
            + etcd.getMetadata().getName() + " became etcd's leader before the timeout; a"
            + " snapshot is taken by the leader's agent");
      }
    }
  }

  private static OnDemandSnapshotConfig config(EtcdOpsTask task) {
    return task.getSpec().getConfig().getOnDemandSnapshot();
  }

  private static SnapshotType type(OnDemandSnapshotConfig c) {
    return c.getType() == null ? SnapshotType.FULL : c.getType();
  }
}
