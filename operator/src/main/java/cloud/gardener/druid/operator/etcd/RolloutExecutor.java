package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.model.LeaseBuilder;
import cloud.gardener.druid.operator.model.MemberPodBuilder;
import cloud.gardener.druid.operator.model.MemberVolumeBuilder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.status.VolumeRecorder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Carries out one {@link RolloutAction} against the API server and the agents: the Etcd
 * reconciler's rollout steps and, {@link #forTask for a task}, an on-demand defragmentation's.
 */
public final class RolloutExecutor {

  private final KubernetesClient client;
  private final AgentClient agents;
  private final OperatorSettings settings;
  private final EventRecorder events;
  private final RolloutSnapshots snapshots;
  private final VolumeRecorder volumes;
  private final MemberPods pods;
  private final MemberRestart restarts;
  private final MemberMetadata metadata;
  /** Starts every event's message: empty for the rollout, the task for a task's steps. */
  private final String eventPrefix;

  public RolloutExecutor(KubernetesClient client, AgentClient agents, OperatorSettings settings,
      EventRecorder events, VolumeRecorder volumes) {
    this(client, agents, settings, events, volumes, RolloutSnapshots.onThreads(),
        MemberRestart.POD_GONE_WAIT);
  }

  RolloutExecutor(KubernetesClient client, AgentClient agents, OperatorSettings settings,
      EventRecorder events, VolumeRecorder volumes, RolloutSnapshots snapshots,
      Duration podGoneWait) {
    this.client = client;
    this.agents = agents;
    this.settings = settings;
    this.events = events;
    this.volumes = volumes;
    this.snapshots = snapshots;
    this.pods = new MemberPods(client);
    this.restarts = new MemberRestart(pods, agents, settings, events, podGoneWait);
    this.metadata = new MemberMetadata(client, settings, events);
    this.eventPrefix = "";
  }

  private RolloutExecutor(RolloutExecutor of, AgentClient agents, String eventPrefix) {
    this.client = of.client;
    this.agents = agents;
    this.settings = of.settings;
    this.events = of.events;
    this.snapshots = of.snapshots;
    this.volumes = of.volumes;
    this.pods = of.pods;
    this.restarts = of.restarts;
    this.metadata = of.metadata;
    this.eventPrefix = eventPrefix;
  }

  /**
   * This executor for the steps of EtcdOpsTask {@code task}: agent calls may take up to
   * {@code agentTimeout} and every event names the task.
   */
  public RolloutExecutor forTask(String task, Duration agentTimeout) {
    return new RolloutExecutor(this, agents.withActionTimeout(agentTimeout),
        "EtcdOpsTask " + task + ": ");
  }

  /** What executing a step did. */
  public sealed interface Outcome {

    /** The step is done (a volume operation it records is written: {@link VolumeRecorder}). */
    record Done() implements Outcome {
    }

    /**
     * The step waits (for a full snapshot running in the background, a pod to terminate); it
     * is planned and asked again. {@code changed}: it already changed the cluster (a restart
     * deleted its pod), so the status is computed from a new observation.
     */
    record Waiting(String what, boolean changed) implements Outcome {
      public Waiting(String what) {
        this(what, false);
      }
    }
  }

  /**
   * Executes {@code action}. Steps that need a full snapshot first start it in the background
   * and answer {@link Outcome.Waiting} until it is taken, so the reconcile thread is free; a
   * restart waits only a few seconds for its pod to go before it answers Waiting.
   */
  public Outcome execute(ClusterSnapshot s, RolloutAction action) {
    return action.accept(new Steps(s));
  }

  /** One method for each action type, against the cluster as observed in {@code s}. */
  private final class Steps implements RolloutAction.Handler<Outcome> {

    private final ClusterSnapshot s;
    private final Etcd etcd;

    Steps(ClusterSnapshot s) {
      this.s = s;
      this.etcd = s.etcd();
    }

    private Outcome done() {
      return new Outcome.Done();
    }

    private Outcome done(String reason, RolloutAction action) {
      event(etcd, reason, action.describe());
      return done();
    }

    @Override
    public Outcome done(RolloutAction.Done action) {
      return done();
    }

    @Override
    public Outcome waiting(RolloutAction.Wait action) {
      return done();
    }

    @Override
    public Outcome createVolumes(RolloutAction.CreateVolumes action) {
      action.ordinals().forEach(i -> apply(MemberVolumeBuilder.build(etcd, i)));
      return done();
    }

    @Override
    public Outcome createPods(RolloutAction.CreatePods action) {
      action.ordinals().forEach(i -> pods.createIfAbsent(MemberPodBuilder.build(etcd, settings,
          i, action.alone() ? 1 : EtcdDefaults.replicas(etcd))));
      return done("MembersCreated", action);
    }

    @Override
    public Outcome restartMember(RolloutAction.RestartMember action) {
      if (action.snapshotFirstVia().isPresent()) {
        Optional<Outcome> waiting = snapshotBeforeVersionChange(s,
            action.snapshotFirstVia().getAsInt());
        if (waiting.isPresent()) {
          return waiting.get();
        }
      }
      return restarts.run(s, action);
    }

    @Override
    public Outcome downgrade(RolloutAction.Downgrade action) {
      if (action.snapshotFirstVia().isPresent()) {
        Optional<Outcome> waiting = snapshotBeforeVersionChange(s,
            action.snapshotFirstVia().getAsInt());
        if (waiting.isPresent()) {
          return waiting.get();
        }
      }
      AgentEndpoint via = endpoint(s, action.viaOrdinal());
      try {
        if (action.action() == Downgraded.Action.ENABLE) {
          agents.downgrade(via, Downgraded.Action.VALIDATE, action.minor());
        }
        String cluster = agents.downgrade(via, action.action(), action.minor());
        events.normal(etcd, "EtcdDowngrade", action.describe() + "; etcd's cluster version: "
            + cluster);
        return done();
      } catch (AgentClient.AgentException e) {
        events.warning(etcd, "EtcdDowngradeRefused", "etcd refuses the downgrade to "
            + action.minor() + ", no member restarts: " + e.getMessage());
        return new Outcome.Waiting("etcd to accept the downgrade to " + action.minor()
            + " (it refuses: " + e.getMessage() + ")");
      }
    }

    @Override
    public Outcome updateMemberMetadata(RolloutAction.UpdateMemberMetadata action) {
      metadata.update(s, action);
      return done();
    }

    @Override
    public Outcome moveLeader(RolloutAction.MoveLeader action) {
      agents.moveLeader(endpoint(s, action.fromOrdinal()), action.toMemberId());
      return done("LeadershipMoved", action);
    }

    @Override
    public Outcome takeLeadership(RolloutAction.TakeLeadership action) {
      agents.moveLeader(endpoint(s, action.ordinal()), action.memberId());
      return done("LeadershipMoved", action);
    }

    @Override
    public Outcome removeSourceMember(RolloutAction.RemoveSourceMember action) {
      agents.removeMember(endpoint(s, action.viaOrdinal()), action.memberId());
      return done("SourceMemberRemoved", action);
    }

    @Override
    public Outcome promoteLearner(RolloutAction.PromoteLearner action) {
      agents.promote(endpoint(s, action.viaOrdinal()), action.memberId());
      return done("MemberPromoted", action);
    }

    @Override
    public Outcome hibernate(RolloutAction.Hibernate action) {
      return RolloutExecutor.this.hibernate(s, action);
    }

    @Override
    public Outcome removeMember(RolloutAction.RemoveMember action) {
      agents.removeMember(endpoint(s, action.viaOrdinal()), action.memberId());
      return done("MemberRemoved", action);
    }

    @Override
    public Outcome deleteSurplusMember(RolloutAction.DeleteSurplusMember action) {
      deletePod(s, action.ordinal());
      deleteClaim(EtcdNames.of(etcd).pvc(action.ordinal()));
      client.resource(LeaseBuilder.member(etcd, action.ordinal())).delete();
      return done("MemberDeleted", action);
    }

    @Override
    public Outcome recordVolumeOperation(RolloutAction.RecordVolumeOperation action) {
      event(etcd, "VolumeOperation", action.describe());
      volumes.record(etcd, action.operation());
      return done();
    }

    @Override
    public Outcome takeFullSnapshot(RolloutAction.TakeFullSnapshot action) {
      return RolloutExecutor.this.takeFullSnapshot(s, action);
    }

    @Override
    public Outcome deleteMemberAndVolume(RolloutAction.DeleteMemberAndVolume action) {
      event(etcd, "VolumeReplacing", action.describe());
      deletePod(s, action.ordinal());
      deleteClaim(action.pvcName());
      return done();
    }

    @Override
    public Outcome deleteMembers(RolloutAction.DeleteMembers action) {
      event(etcd, "MembersDeleted", action.describe());
      action.ordinals().forEach(i -> deletePod(s, i));
      return done();
    }

    @Override
    public Outcome deleteVolumes(RolloutAction.DeleteVolumes action) {
      event(etcd, "VolumesDeleted", action.describe());
      action.pvcNames().forEach(this::deleteClaim);
      volumes.record(etcd, action.then());
      return done();
    }

    @Override
    public Outcome expandVolumes(RolloutAction.ExpandVolumes action) {
      action.ordinals().forEach(i -> apply(MemberVolumeBuilder.build(etcd, i)));
      return done("VolumesExpanding", action);
    }

    @Override
    public Outcome defragment(RolloutAction.Defragment action) {
      agents.defragment(endpoint(s, action.ordinal()));
      return done("MemberDefragmented", action);
    }

    private void deleteClaim(String name) {
      client.persistentVolumeClaims().inNamespace(ns(etcd)).withName(name).delete();
    }
  }

  private Outcome takeFullSnapshot(ClusterSnapshot s, RolloutAction.TakeFullSnapshot t) {
    Etcd etcd = s.etcd();
    VolumeOperation then = t.then();
    OptionalLong revision = snapshots.revision(etcd, "volume " + then.getType() + " "
        + then.getGeneration(), agents, endpoint(s, t.viaOrdinal()), false);
    if (revision.isEmpty()) {
      return new Outcome.Waiting("the full snapshot before volumes are changed");
    }
    then.setSnapshotRevision(revision.getAsLong());
    event(etcd, "FullSnapshotTaken", "full snapshot at revision " + revision.getAsLong()
        + " taken before volumes are changed");
    volumes.record(etcd, then);
    return new Outcome.Done();
  }

  /**
   * A full snapshot through {@code viaOrdinal}'s agent before the first member runs another
   * etcd minor (or etcd's downgrade is enabled): waiting while it runs, empty once taken.
   */
  private Optional<Outcome> snapshotBeforeVersionChange(ClusterSnapshot s, int viaOrdinal) {
    Etcd etcd = s.etcd();
    String minor = EtcdDefaults.etcdRelease(etcd).minor();
    OptionalLong revision = snapshots.revision(etcd, "etcd version " + minor + " "
        + etcd.getMetadata().getGeneration(), agents, endpoint(s, viaOrdinal), false);
    if (revision.isEmpty()) {
      return Optional.of(new Outcome.Waiting("the full snapshot before etcd " + minor
          + " runs"));
    }
    events.normal(etcd, "FullSnapshotTaken", "full snapshot at revision "
        + revision.getAsLong() + " taken before etcd " + minor + " runs");
    return Optional.empty();
  }

  private Outcome hibernate(ClusterSnapshot s, RolloutAction.Hibernate h) {
    Etcd etcd = s.etcd();
    Optional<VolumeOperation> record = Optional.empty();
    if (h.finalSnapshotVia().isPresent()) {
      OptionalLong revision = snapshots.revision(etcd, "hibernation "
          + etcd.getMetadata().getGeneration(), agents,
          endpoint(s, h.finalSnapshotVia().getAsInt()), true);
      if (revision.isEmpty()) {
        return new Outcome.Waiting("the final full snapshot before hibernation");
      }
      event(etcd, "FinalSnapshotTaken", "final full snapshot at revision "
          + revision.getAsLong() + " taken before hibernation");
      record = h.recordAfterSnapshot().map(op -> {
        op.setSnapshotRevision(revision.getAsLong());
        return op;
      });
    } else if (EtcdDefaults.hasStore(etcd)) {
      events.warning(etcd, "NoFinalSnapshot", "no ready leader: hibernating without a final"
          + " full snapshot; the newest backup is the last delta snapshot");
    }
    if (EtcdDefaults.deleteVolumesOnHibernation(etcd) && record.isEmpty()) {
      events.warning(etcd, "VolumesKept", EtcdDefaults.hasStore(etcd)
          ? "hibernation.deleteVolumes: no final full snapshot could be taken, the volumes"
              + " are kept"
          : "hibernation.deleteVolumes needs a backup store to restore from; the volumes are"
              + " kept");
    }
    h.ordinals().forEach(i -> deletePod(s, i));
    record.ifPresent(op -> volumes.record(etcd, op));
    event(etcd, "Hibernating", h.describe());
    return new Outcome.Done();
  }

  /** Stops the snapshots still running in the background (the operator is stopping). */
  public void close() {
    snapshots.close();
  }

  private void deletePod(ClusterSnapshot s, int ordinal) {
    pods.delete(ns(s.etcd()), s.members().get(ordinal));
  }

  private void event(Etcd etcd, String reason, String message) {
    events.normal(etcd, reason, eventPrefix + message);
  }

  private AgentEndpoint endpoint(ClusterSnapshot s, int ordinal) {
    MemberObservation m = s.members().get(ordinal);
    Pod pod = m.pod().orElseThrow(() -> new AgentClient.AgentException(m.name() + " has no pod"));
    return AgentEndpoint.of(pod, EtcdDefaults.agentPort(s.etcd()), EtcdDefaults.agentTls(s.etcd()))
        .orElseThrow(() -> new AgentClient.AgentException(m.name() + " has no pod IP yet"));
  }

  private void apply(HasMetadata object) {
    client.resource(object).fieldManager("etcd-druid").forceConflicts().serverSideApply();
  }

  private static String ns(Etcd etcd) {
    return etcd.getMetadata().getNamespace();
  }
}
