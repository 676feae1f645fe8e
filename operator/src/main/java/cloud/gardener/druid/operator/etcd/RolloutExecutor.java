package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
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
import cloud.gardener.druid.operator.rollout.RolloutAction;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.Optional;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** Carries out one {@link RolloutAction} against the API server and the agents. */
public final class RolloutExecutor {

  static final Duration FULL_SNAPSHOT_TIMEOUT = Duration.ofMinutes(15);

  private final KubernetesClient client;
  private final AgentClient agents;
  private final OperatorSettings settings;
  private final EventRecorder events;

  public RolloutExecutor(KubernetesClient client, AgentClient agents, OperatorSettings settings,
      EventRecorder events) {
    this.client = client;
    this.agents = agents;
    this.settings = settings;
    this.events = events;
  }

  /**
   * Executes {@code action}; returns the volume operation to record in status with this
   * reconcile's status write, if the action produced one.
   */
  public Optional<VolumeOperation> execute(ClusterSnapshot s, RolloutAction action) {
    Etcd etcd = s.etcd();
    if (action instanceof RolloutAction.CreateVolumes v) {
      v.ordinals().forEach(i -> apply(MemberVolumeBuilder.build(etcd, i)));
    } else if (action instanceof RolloutAction.CreatePods p) {
      p.ordinals().forEach(i -> create(MemberPodBuilder.build(etcd, settings, i,
          p.alone() ? 1 : EtcdDefaults.replicas(etcd))));
      events.normal(etcd, "MembersCreated", action.describe());
    } else if (action instanceof RolloutAction.RestartMember r) {
      events.normal(etcd, "MemberUpdating", action.describe());
      client.pods().inNamespace(ns(etcd)).withName(r.name()).delete();
    } else if (action instanceof RolloutAction.MoveLeader m) {
      agents.moveLeader(endpoint(s, m.fromOrdinal()), m.toMemberId());
      events.normal(etcd, "LeadershipMoved", action.describe());
    } else if (action instanceof RolloutAction.PromoteLearner p) {
      agents.promote(endpoint(s, p.viaOrdinal()), p.memberId());
      events.normal(etcd, "MemberPromoted", action.describe());
    } else if (action instanceof RolloutAction.RemoveMember r) {
      agents.removeMember(endpoint(s, r.viaOrdinal()), r.memberId());
      events.normal(etcd, "MemberRemoved", action.describe());
    } else if (action instanceof RolloutAction.Hibernate h) {
      return hibernate(s, h);
    } else if (action instanceof RolloutAction.DeleteSurplusMember d) {
      deleteSurplus(etcd, d);
    } else if (action instanceof RolloutAction.RecordVolumeOperation r) {
      events.normal(etcd, "VolumeOperation", r.describe());
      return Optional.of(r.operation());
    } else if (action instanceof RolloutAction.TakeFullSnapshot t) {
      long revision = snapshots().fullSnapshot(endpoint(s, t.viaOrdinal()), false);
      VolumeOperation then = t.then();
      then.setSnapshotRevision(revision);
      events.normal(etcd, "FullSnapshotTaken", "full snapshot at revision " + revision
          + " taken before volumes are changed");
      return Optional.of(then);
    } else if (action instanceof RolloutAction.DeleteMemberAndVolume d) {
      events.normal(etcd, "VolumeReplacing", action.describe());
      client.pods().inNamespace(ns(etcd)).withName(d.name()).delete();
      client.persistentVolumeClaims().inNamespace(ns(etcd)).withName(d.pvcName()).delete();
    } else if (action instanceof RolloutAction.DeleteMembers d) {
      events.normal(etcd, "MembersDeleted", action.describe());
      d.ordinals().forEach(i -> client.pods().inNamespace(ns(etcd))
          .withName(s.members().get(i).name()).delete());
    } else if (action instanceof RolloutAction.DeleteVolumes d) {
      events.normal(etcd, "VolumesDeleted", action.describe());
      d.pvcNames().forEach(n -> client.persistentVolumeClaims().inNamespace(ns(etcd))
          .withName(n).delete());
      return Optional.of(d.then());
    } else if (action instanceof RolloutAction.ExpandVolumes v) {
      v.ordinals().forEach(i -> apply(MemberVolumeBuilder.build(etcd, i)));
      events.normal(etcd, "VolumesExpanding", action.describe());
    }
    return Optional.empty();
  }

  private Optional<VolumeOperation> hibernate(ClusterSnapshot s, RolloutAction.Hibernate h) {
    Etcd etcd = s.etcd();
    Optional<VolumeOperation> record = Optional.empty();
    if (h.finalSnapshotVia().isPresent()) {
      long revision = snapshots().fullSnapshot(endpoint(s, h.finalSnapshotVia().getAsInt()),
          true);
      events.normal(etcd, "FinalSnapshotTaken", "final full snapshot at revision " + revision
          + " taken before hibernation");
      record = h.recordAfterSnapshot().map(op -> {
        op.setSnapshotRevision(revision);
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
    return record;
  }

  private void deleteSurplus(Etcd etcd, RolloutAction.DeleteSurplusMember d) {
    EtcdNames names = EtcdNames.of(etcd);
    client.pods().inNamespace(ns(etcd)).withName(d.name()).delete();
    client.persistentVolumeClaims().inNamespace(ns(etcd)).withName(names.pvc(d.ordinal())).delete();
    client.resource(LeaseBuilder.member(etcd, d.ordinal())).delete();
    events.normal(etcd, "MemberDeleted", d.describe());
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

  private void apply(io.fabric8.kubernetes.api.model.HasMetadata object) {
    client.resource(object).fieldManager("etcd-druid").forceConflicts().serverSideApply();
  }

  private void create(Pod pod) {
    try {
      client.resource(pod).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }

  private static String ns(Etcd etcd) {
    return etcd.getMetadata().getNamespace();
  }
}
