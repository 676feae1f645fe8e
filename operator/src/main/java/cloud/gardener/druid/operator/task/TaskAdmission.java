package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig.Source;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.ExistingClusterJoin;
import cloud.gardener.druid.operator.model.EtcdNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Decides whether a Pending task may start (pure; no I/O). In this order:
 * <ol>
 *   <li>reject a task whose config or target is wrong: not exactly one operation, no Etcd of
 *       that name in the task's namespace (or it is being deleted), a member name that is not
 *       {@code <etcd>-<ordinal>} below {@code spec.replicas}, an operation that needs a backup
 *       store on an Etcd without one, an operation on a hibernated Etcd;</li>
 *   <li>wait while an older unfinished task of the same Etcd exists (tasks of one Etcd run
 *       one at a time, oldest first, so concurrent admissions cannot both start);</li>
 *   <li>wait while the Etcd carries out a volume operation of its own (all but snapshots);</li>
 *   <li>admit.</li>
 * </ol>
 */
public final class TaskAdmission {

  /** The outcome of admission. */
  public sealed interface Decision {
  }

  /** Start the task. */
  public record Admit(TaskKind kind) implements Decision {
  }

  /** Stay Pending; {@code reason} says for what. */
  public record Wait(String reason) implements Decision {
  }

  /** The task can never run as specified. */
  public record Reject(List<TaskError> errors) implements Decision {
  }

  private TaskAdmission() {
  }

  /**
   * @param task the Pending task
   * @param etcd the Etcd named by {@code spec.etcdName}, read fresh, if it exists
   * @param tasks every task in the task's namespace, read fresh (may include {@code task})
   */
  public static Decision decide(EtcdOpsTask task, Optional<Etcd> etcd, List<EtcdOpsTask> tasks) {
    List<TaskKind> kinds = TaskKind.of(task);
    if (kinds.size() != 1) {
      return reject(TaskError.INVALID_CONFIG, "spec.config: must set exactly one operation"
          + " (onDemandSnapshot, defragment, replaceMemberVolume, recoverFromQuorumLoss,"
          + " verifyBackups, restoreInto or undelete), found " + kinds.size());
    }
    TaskKind kind = kinds.get(0);
    String etcdName = task.getSpec().getEtcdName();
    String ns = task.getMetadata().getNamespace();
    if (etcd.isEmpty()) {
      return reject(TaskError.ETCD_NOT_FOUND, "spec.etcdName: Etcd \"" + etcdName
          + "\" does not exist in namespace \"" + ns + "\"");
    }
    if (etcd.get().getMetadata().getDeletionTimestamp() != null) {
      return reject(TaskError.ETCD_DELETING, "spec.etcdName: Etcd \"" + etcdName
          + "\" is being deleted");
    }
    List<TaskError> errors = check(task, kind, etcd.get());
    if (!errors.isEmpty()) {
      return new Reject(errors);
    }
    Optional<EtcdOpsTask> earlier = olderUnfinished(task, tasks);
    if (earlier.isPresent()) {
      EtcdOpsTask e = earlier.get();
      return new Wait("waiting for EtcdOpsTask " + e.getMetadata().getName() + " ("
          + stateOf(e) + ") of Etcd " + etcdName + " to finish: tasks of one Etcd run one at a"
          + " time");
    }
    VolumeOperation vo = etcd.get().getStatus() == null ? null
        : etcd.get().getStatus().getVolumeOperation();
    if (kind != TaskKind.ON_DEMAND_SNAPSHOT && kind != TaskKind.VERIFY_BACKUPS
        && kind != TaskKind.RESTORE_INTO && vo != null
        && !vo.isFinished()) {
      return new Wait("waiting for the volume operation " + vo.getType() + " (phase "
          + vo.getPhase() + ") of Etcd " + etcdName + " to finish");
    }
    return new Admit(kind);
  }

  private static List<TaskError> check(EtcdOpsTask task, TaskKind kind, Etcd etcd) {
    List<TaskError> errors = new ArrayList<>();
    String name = etcd.getMetadata().getName();
    int replicas = EtcdDefaults.replicas(etcd);
    boolean hasStore = EtcdDefaults.hasStore(etcd);
    switch (kind) {
      case ON_DEMAND_SNAPSHOT -> {
        if (!hasStore) {
          errors.add(new TaskError(TaskError.BACKUP_NOT_ENABLED, "spec.etcdName: Etcd \"" + name
              + "\" has no backup store (spec.backup.store); an on-demand snapshot needs one"));
        }
        hibernated(etcd, "take a snapshot").ifPresent(errors::add);
      }
      case DEFRAGMENT -> hibernated(etcd, "defragment").ifPresent(errors::add);
      case REPLACE_MEMBER_VOLUME -> {
        String member = task.getSpec().getConfig().getReplaceMemberVolume().getMemberName();
        memberName(etcd, member, "spec.config.replaceMemberVolume.memberName")
            .ifPresent(errors::add);
        if (replicas == 1 && !hasStore) {
          errors.add(new TaskError(TaskError.BACKUP_NOT_ENABLED, "spec.etcdName: Etcd \"" + name
              + "\" has one member and no backup store (spec.backup.store); its replaced volume"
              + " could only be restored from one"));
        }
      }
      case RECOVER_FROM_QUORUM_LOSS -> {
        RecoverFromQuorumLossConfig c = task.getSpec().getConfig().getRecoverFromQuorumLoss();
        Source source = c.getSource() == null ? Source.AUTO : c.getSource();
        // Recovery deletes every member and restores from the store: without one, or from a
        // surviving member's data (not implemented), it would lose data.
        if (source == Source.MEMBER) {
          errors.add(new TaskError(TaskError.INVALID_CONFIG,
              "spec.config.recoverFromQuorumLoss.source: Member is not supported; recovery"
                  + " restores from the backup store (source Store or Auto)"));
        } else if (!hasStore) {
          errors.add(new TaskError(TaskError.BACKUP_NOT_ENABLED,
              "spec.config.recoverFromQuorumLoss.source: " + (source == Source.STORE ? "Store"
                  : "Auto") + ", but Etcd \"" + name + "\" has no backup store"
                  + " (spec.backup.store) to restore from"));
        }
        hibernated(etcd, "recover").ifPresent(errors::add);
      }
      case VERIFY_BACKUPS -> {
        // the drill reads only the store: hibernated Etcds' backups are verified too
        if (!hasStore) {
          errors.add(new TaskError(TaskError.BACKUP_NOT_ENABLED, "spec.config.verifyBackups: "
              + "Etcd \"" + name + "\" has no backup store (spec.backup.store) to verify"));
        }
      }
      case RETIRE_SOURCE_MEMBERS -> {
        notJoined(etcd).ifPresent(errors::add);
        hibernated(etcd, "retire the source members").ifPresent(errors::add);
      }
      case RESTORE_INTO, UNDELETE -> errors.addAll(timeTravel(kind, etcd, hasStore));
      default -> throw new IllegalStateException("unknown task kind " + kind);
    }
    return errors;
  }

  /** Only after a join that succeeded: before it, no member of the Etcd may carry the cluster. */
  private static Optional<TaskError> notJoined(Etcd etcd) {
    String name = etcd.getMetadata().getName();
    if (ExistingClusterJoin.sourceMembers(etcd).isEmpty()) {
      return Optional.of(new TaskError(TaskError.NOT_JOINED, "spec.etcdName: Etcd \"" + name
          + "\" did not join an existing cluster (spec.etcd.bootstrapWithExistingCluster)"));
    }
    if (ExistingClusterJoin.recorded(etcd).isEmpty()) {
      return Optional.of(new TaskError(TaskError.NOT_JOINED, "spec.etcdName: Etcd \"" + name
          + "\" has not joined the existing cluster yet (condition"
          + " BootstrappedWithExistingCluster is not True)"));
    }
    return Optional.empty();
  }

  /**
   * Both read the store; only an undelete writes into running members (a restore reads a
   * hibernated Etcd's history too).
   */
  private static List<TaskError> timeTravel(TaskKind kind, Etcd etcd, boolean hasStore) {
    List<TaskError> errors = new ArrayList<>();
    if (!hasStore) {
      errors.add(new TaskError(TaskError.BACKUP_NOT_ENABLED, "spec.config." + kind.field()
          + ": Etcd \"" + etcd.getMetadata().getName() + "\" has no backup store"
          + " (spec.backup.store) to read its history from"));
    }
    if (kind == TaskKind.UNDELETE) {
      hibernated(etcd, "write the keys back into").ifPresent(errors::add);
    }
    return errors;
  }

  private static Optional<TaskError> hibernated(Etcd etcd, String what) {
    return EtcdDefaults.replicas(etcd) > 0 ? Optional.empty()
        : Optional.of(new TaskError(TaskError.ETCD_HIBERNATED, "spec.etcdName: Etcd \""
            + etcd.getMetadata().getName() + "\" is hibernated (spec.replicas: 0); no member"
            + " runs to " + what));
  }

  /** An error when {@code member} is not {@code <prefix>-<ordinal>} below spec.replicas. */
  static Optional<TaskError> memberName(Etcd etcd, String member, String field) {
    EtcdNames names = EtcdNames.of(etcd);
    int replicas = EtcdDefaults.replicas(etcd);
    int ordinal = names.ordinalOf(member);
    if (ordinal >= 0 && ordinal < replicas) {
      return Optional.empty();
    }
    String members = replicas == 0 ? "none, spec.replicas is 0"
        : IntStream.range(0, replicas).mapToObj(names::member).collect(Collectors.joining(", "));
    return Optional.of(new TaskError(TaskError.INVALID_MEMBER_NAME, field + ": "
        + (member == null || member.isEmpty() ? "is empty" : "\"" + member + "\" is not a member")
        + " of Etcd \"" + etcd.getMetadata().getName() + "\" (members: " + members + ")"));
  }

  /** The oldest unfinished task of the same Etcd created before {@code task}, if any. */
  static Optional<EtcdOpsTask> olderUnfinished(EtcdOpsTask task, List<EtcdOpsTask> tasks) {
    String etcdName = task.getSpec().getEtcdName();
    return tasks.stream()
        .filter(t -> t.getSpec() != null && etcdName.equals(t.getSpec().getEtcdName()))
        .filter(t -> !t.getMetadata().getName().equals(task.getMetadata().getName()))
        .filter(t -> t.getStatus() == null || !t.getStatus().isFinished())
        .filter(t -> ORDER.compare(t, task) < 0)
        .min(ORDER);
  }

  /** Tasks of one Etcd run in creation order; the name breaks ties within one second. */
  static final Comparator<EtcdOpsTask> ORDER = Comparator
      .comparing((EtcdOpsTask t) -> created(t))
      .thenComparing(t -> t.getMetadata().getName());

  private static Instant created(EtcdOpsTask t) {
    String ts = t.getMetadata().getCreationTimestamp();
    return ts == null ? Instant.MAX : Instant.parse(ts);
  }

  private static String stateOf(EtcdOpsTask t) {
    return t.getStatus() == null || t.getStatus().getState() == null
        ? "Pending" : t.getStatus().getState();
  }

  private static Reject reject(String code, String description) {
    return new Reject(List.of(new TaskError(code, description)));
  }
}
