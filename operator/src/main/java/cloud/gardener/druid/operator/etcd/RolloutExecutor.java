package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
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
import cloud.gardener.druid.operator.action.RolloutAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/** Carries out one {@link RolloutAction} against the API server and the agents. */
public final class RolloutExecutor {

  static final Duration FULL_SNAPSHOT_TIMEOUT = Duration.ofMinutes(15);

  private final KubernetesClient client;
  private final AgentClient agents;
  private final OperatorSettings settings;
  private final EventRecorder events;
  private final BackgroundSnapshots snapshotRuns;
  private final MemberRestart restarts;
  private final MemberMetadata metadata;

  public RolloutExecutor(KubernetesClient client, AgentClient agents, OperatorSettings settings,
      EventRecorder events) {
    this(client, agents, settings, events, new BackgroundSnapshots(), MemberRestart.POD_GONE_WAIT);
  }

  RolloutExecutor(KubernetesClient client, AgentClient agents, OperatorSettings settings,
      EventRecorder events, BackgroundSnapshots snapshotRuns, Duration podGoneWait) {
    this.client = client;
    this.agents = agents;
    this.settings = settings;
    this.events = events;
    this.snapshotRuns = snapshotRuns;
    this.restarts = new MemberRestart(client, settings, events, podGoneWait);
    this.metadata = new MemberMetadata(client, settings, events);
  }

  /** What executing a step did. */
  public sealed interface Outcome {

    /** The step is done; {@code recorded} is the volume operation to record, if any. */
    record Done(Optional<VolumeOperation> recorded) implements Outcome {
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
      return new Outcome.Done(Optional.empty());
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
      action.ordinals().forEach(i -> MemberRestart.createIfAbsent(client, MemberPodBuilder.build(etcd, settings, i,
          action.alone() ? 1 : EtcdDefaults.replicas(etcd))));
      events.normal(etcd, "MembersCreated", action.describe());
      return done();
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
      events.normal(etcd, "LeadershipMoved", action.describe());
      return done();
    }

    @Override
    public Outcome promoteLearner(RolloutAction.PromoteLearner action) {
      agents.promote(endpoint(s, action.viaOrdinal()), action.memberId());
      events.normal(etcd, "MemberPromoted", action.describe());
      return done();
    }

    @Override
    public Outcome hibernate(RolloutAction.Hibernate action) {
      return RolloutExecutor.this.hibernate(s, action);
    }

    @Override
    public Outcome removeMember(RolloutAction.RemoveMember action) {
      agents.removeMember(endpoint(s, action.viaOrdinal()), action.memberId());
      events.normal(etcd, "MemberRemoved", action.describe());
      return done();
    }

    @Override
    public Outcome deleteSurplusMember(RolloutAction.DeleteSurplusMember action) {
      deletePod(action.name());
      deleteClaim(EtcdNames.of(etcd).pvc(action.ordinal()));
      client.resource(LeaseBuilder.member(etcd, action.ordinal())).delete();
      events.normal(etcd, "MemberDeleted", action.describe());
      return done();
    }

    @Override
    public Outcome recordVolumeOperation(RolloutAction.RecordVolumeOperation action) {
      events.normal(etcd, "VolumeOperation", action.describe());
      return new Outcome.Done(Optional.of(action.operation()));
    }

    @Override
    public Outcome takeFullSnapshot(RolloutAction.TakeFullSnapshot action) {
      return RolloutExecutor.this.takeFullSnapshot(s, action);
    }

    @Override
    public Outcome deleteMemberAndVolume(RolloutAction.DeleteMemberAndVolume action) {
      events.normal(etcd, "VolumeReplacing", action.describe());
      deletePod(action.name());
      deleteClaim(action.pvcName());
      return done();
    }

    @Override
    public Outcome deleteMembers(RolloutAction.DeleteMembers action) {
      events.normal(etcd, "MembersDeleted", action.describe());
      action.ordinals().forEach(i -> deletePod(s.members().get(i).name()));
      return done();
    }

    @Override
    public Outcome deleteVolumes(RolloutAction.DeleteVolumes action) {
      events.normal(etcd, "VolumesDeleted", action.describe());
      action.pvcNames().forEach(this::deleteClaim);
      return new Outcome.Done(Optional.of(action.then()));
    }

    @Override
    public Outcome expandVolumes(RolloutAction.ExpandVolumes action) {
      action.ordinals().forEach(i -> apply(MemberVolumeBuilder.build(etcd, i)));
      events.normal(etcd, "VolumesExpanding", action.describe());
      return done();
    }

    private void deletePod(String name) {
      client.pods().inNamespace(ns(etcd)).withName(name).delete();
    }

    private void deleteClaim(String name) {
      client.persistentVolumeClaims().inNamespace(ns(etcd)).withName(name).delete();
    }
  }

  private Outcome takeFullSnapshot(ClusterSnapshot s, RolloutAction.TakeFullSnapshot t) {
    Etcd etcd = s.etcd();
    VolumeOperation then = t.then();
    AgentEndpoint via = endpoint(s, t.viaOrdinal());
    OptionalLong revision = snapshotRuns.result(key(etcd, "volume " + then.getType() + " "
        + then.getGeneration()), () -> snapshots().fullSnapshot(via, false));
    if (revision.isEmpty()) {
      return new Outcome.Waiting("the full snapshot before volumes are changed");
    }
    then.setSnapshotRevision(revision.getAsLong());
    events.normal(etcd, "FullSnapshotTaken", "full snapshot at revision "
        + revision.getAsLong() + " taken before volumes are changed");
    return new Outcome.Done(Optional.of(then));
  }

  /**
   * A full snapshot through {@code viaOrdinal}'s agent before the first member runs another
   * etcd minor (or etcd's downgrade is enabled): waiting while it runs, empty once taken.
   */
  private Optional<Outcome> snapshotBeforeVersionChange(ClusterSnapshot s, int viaOrdinal) {
    Etcd etcd = s.etcd();
    String minor = EtcdDefaults.etcdRelease(etcd).minor();
    OptionalLong revision = snapshotRuns.result(key(etcd, "etcd version " + minor + " "
        + etcd.getMetadata().getGeneration()),
        () -> snapshots().fullSnapshot(endpoint(s, viaOrdinal), false));
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
      AgentEndpoint via = endpoint(s, h.finalSnapshotVia().getAsInt());
      OptionalLong revision = snapshotRuns.result(key(etcd, "hibernation "
          + etcd.getMetadata().getGeneration()), () -> snapshots().fullSnapshot(via, true));
      if (revision.isEmpty()) {
        return new Outcome.Waiting("the final full snapshot before hibernation");
      }
      events.normal(etcd, "FinalSnapshotTaken", "final full snapshot at revision "
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
    h.ordinals().forEach(i -> client.pods().inNamespace(ns(etcd))
        .withName(s.members().get(i).name()).delete());
    events.normal(etcd, "Hibernating", h.describe());
    return new Outcome.Done(record);
  }

  /** Names a snapshot request: the Etcd (by UID, so a recreated one asks anew) and its use. */
  private static String key(Etcd etcd, String purpose) {
    return etcd.getMetadata().getUid() + " " + purpose;
  }

  /** Stops the snapshots still running in the background (the operator is stopping). */
  public void close() {
    snapshotRuns.close();
  }

  /**
   * Full snapshots before volumes go or pods stop may take long on a large database: they get
   * upstream's full-snapshot timeout instead of the client's default for quick calls.
   */
  private AgentClient snapshots() {
    return agents.withActionTimeout(FULL_SNAPSHOT_TIMEOUT);
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
