package cloud.gardener.druid.operator.status;



import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.EtcdVersionView;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.BootstrapStatus;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.LastError;
import cloud.gardener.druid.api.v1alpha1.LastOperation;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Computes the whole status of an Etcd from one observation. Pure: the same snapshot and the
 * same previous status give the same result, so an unchanged world writes nothing.
 */
public final class EtcdStatusComputer {

  private EtcdStatusComputer() {
  }

  /**
   * @param desired what the spec asks the members to be
   * @param observedGeneration the generation whose children were written before the snapshot
   *     was taken, or empty to keep the previous one (spec reconcile skipped)
   */
  public static EtcdStatus compute(ClusterSnapshot s, DesiredMembers desired, EtcdStatus previous,
      Optional<Long> observedGeneration, LastOperation lastOperation, List<LastError> lastErrors) {
    // the volume operation as recorded (status.VolumeRecorder) and observed
    VolumeOperation volumeOperation = s.volumes().recorded().orElse(null);
    EtcdStatus prev = previous == null ? new EtcdStatus() : previous;
    EtcdStatus next = new EtcdStatus();
    next.setObservedGeneration(observedGeneration.orElse(prev.getObservedGeneration()));
    List<Condition> conditions = s.replicas() == 0
        ? notChecked(prev.getConditions(), s.members().stream().noneMatch(MemberObservation::podExists),
            EtcdDefaults.runtimeComponentsEnabled(s.etcd()) ? "The cluster is hibernated (replicas: 0)."
                : "Runtime components are disabled (annotation "
                    + Annotations.DISABLE_RUNTIME_COMPONENT_CREATION + ").")
        : withSpace(ConditionComputer.compute(s, desired, volumeOperation), s);
    if (observedGeneration.isEmpty()) {
      conditions = keepPrevious(conditions, prev.getConditions(), ConditionTypes.ALL_MEMBERS_UPDATED);
    }
    BootstrapStatus joined = ExistingClusterStatus.record(s, prev);
    if (s.replicas() > 0) {
      conditions = new ArrayList<>(conditions);
      ExistingClusterStatus.condition(s, joined).ifPresent(conditions::add);
    }
    List<Condition> stamped = new ArrayList<>(conditions.stream()
        .filter(c -> !WRITTEN_ELSEWHERE.contains(c.getType()))
        .map(c -> Conditions.stamp(c, prev.getConditions(), s.observedAt())).toList());
    WRITTEN_ELSEWHERE.forEach(type -> Condition.find(prev.getConditions(), type)
        .ifPresent(stamped::add));
    next.setConditions(stamped);
    next.setMembers(MemberStatuses.compute(s, desired, prev.getMembers(), s.observedAt()));
    int current = (int) s.members().stream().filter(MemberObservation::podExists).count();
    int ready = (int) s.members().stream().filter(MemberObservation::ready).count();
    next.setCurrentReplicas(current);
    next.setReplicas(current);
    next.setReadyReplicas(ready);
    next.setReady(s.replicas() > 0 && Condition.find(conditions, ConditionTypes.ALL_MEMBERS_READY)
        .filter(c -> ConditionTypes.TRUE.equals(c.getStatus())).isPresent());
    next.setSelector(EtcdLabels.asSelectorString(EtcdLabels.memberSelector(s.etcd())));
    AgentView.EtcdVersions versions = EtcdVersionView.of(s);
    // a cluster version once known is kept while no voting member answers (admission reads it)
    next.setEtcdClusterVersion(versions.cluster() != null ? versions.cluster()
        : s.replicas() == 0 ? null : prev.getEtcdClusterVersion());
    next.setEtcdDowngradeTarget(versions.downgradeTarget());
    next.setLastOperation(lastOperation);
    next.setLastErrors(lastErrors == null || lastErrors.isEmpty() ? null : lastErrors);
    next.setEtcd(prev.getEtcd());
    next.setVolumeOperation(volumeOperation);
    next.setCertificates(prev.getCertificates()); // written by its step only (VolumeRecorder)
    next.setBootstrapWithExistingCluster(joined);
    next.setCapacity(CapacityStatuses.compute(s, prev.getCapacity()));
    next.setVerifiedBackupRevisionLag(BackupVerification.revisionLag(s).orElse(null));
    return next;
  }

  private static List<Condition> withSpace(List<Condition> conditions, ClusterSnapshot s) {
    List<Condition> all = new ArrayList<>(conditions);
    CapacityStatuses.condition(s).ifPresent(all::add);
    return all;
  }

  /** Conditions another controller writes: carried over as they are. */
  private static final List<String> WRITTEN_ELSEWHERE =
      List.of(ConditionTypes.LAST_SNAPSHOT_COMPACTION_SUCCEEDED);

  /** The conditions the rollout predicate reads; with no member left they hold vacuously. */
  private static final List<String> ROLLOUT_CONDITIONS = List.of(ConditionTypes.READY,
      ConditionTypes.ALL_MEMBERS_READY, ConditionTypes.ALL_MEMBERS_UPDATED);

  /**
   * With replicas 0 every condition keeps its status with reason NotChecked (upstream). Once no
   * member pod is left, the rollout predicate's three conditions are True (every one of the zero
   * wanted members is ready and updated), also when they were False or absent before (an Etcd
   * created hibernated never had any), so that the hibernation's rollout completes exactly when
   * the last member is gone.
   */
  private static List<Condition> notChecked(List<Condition> previous, boolean noMemberLeft,
      String message) {
    List<Condition> kept = new ArrayList<>();
    if (previous != null) {
      previous.stream().filter(p -> !noMemberLeft || !ROLLOUT_CONDITIONS.contains(p.getType()))
          .map(p -> Conditions.of(p.getType(), p.getStatus(), "NotChecked", message))
          .forEach(kept::add);
    }
    if (noMemberLeft) {
      ROLLOUT_CONDITIONS.forEach(type -> kept.add(
          Conditions.of(type, ConditionTypes.TRUE, "NotChecked", message)));
    }
    return kept;
  }

  private static List<Condition> keepPrevious(List<Condition> computed, List<Condition> previous,
      String type) {
    Optional<Condition> prev = Condition.find(previous, type);
    return computed.stream().map(c -> type.equals(c.getType()) && prev.isPresent()
        ? Conditions.of(type, prev.get().getStatus(), prev.get().getReason(), prev.get().getMessage())
        : c).toList();
  }
}
