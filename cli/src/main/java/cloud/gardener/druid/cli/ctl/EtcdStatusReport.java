package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.task.TaskKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The text of {@code druid ctl status}: rollout, members, conditions, pending volume changes
 * and the Etcd's EtcdOpsTasks.
 */
final class EtcdStatusReport {

  private EtcdStatusReport() {
  }

  static String render(Etcd etcd) {
    return render(etcd, List.of());
  }

  /** With the EtcdOpsTasks of this Etcd (any others in {@code tasks} are left out). */
  static String render(Etcd etcd, List<EtcdOpsTask> tasks) {
    StringBuilder out = new StringBuilder();
    EtcdStatus s = etcd.getStatus() == null ? new EtcdStatus() : etcd.getStatus();
    out.append("Etcd ").append(etcd.getMetadata().getNamespace()).append('/')
        .append(etcd.getMetadata().getName()).append("  generation ")
        .append(etcd.getMetadata().getGeneration()).append(", observed ")
        .append(text(s.getObservedGeneration())).append(", replicas ")
        .append(etcd.getSpec().getReplicas()).append('\n');
    List<String> pending = RolloutCompletion.pendingReasons(etcd);
    out.append("Rollout: ").append(pending.isEmpty() ? "complete" : "in progress - "
        + String.join("; ", pending)).append('\n');
    out.append("etcd: ").append(EtcdRelease.ofSpec(etcd.getSpec().getEtcd() == null ? null
        : etcd.getSpec().getEtcd().getVersion()).minor()).append(", cluster version ")
        .append(text(s.getEtcdClusterVersion()))
        .append(s.getEtcdDowngradeTarget() == null ? ""
            : ", downgrade to " + s.getEtcdDowngradeTarget() + " enabled").append('\n');
    space(s.getCapacity()).ifPresent(line -> out.append(line).append('\n'));
    if (s.getVerifiedBackupRevisionLag() != null) {
      out.append("Backups: the cluster is ").append(s.getVerifiedBackupRevisionLag())
          .append("+ revisions ahead of the newest revision a drill proved restorable\n");
    }
    out.append('\n');

    List<List<String>> members = new ArrayList<>();
    members.add(List.of("MEMBER", "ID", "ROLE", "STATUS", "ETCD", "REVISION", "VOLUME",
        "UPDATED"));
    for (EtcdMemberStatus m : s.getMembers() == null ? List.<EtcdMemberStatus>of() : s.getMembers()) {
      members.add(List.of(text(m.getName()), text(m.getId()), text(m.getRole()), status(m),
          text(m.getEtcdVersion()), text(m.getMemberRevision()), text(m.getVolumeRevision()),
          text(m.getUpdated())));
    }
    out.append(table(members)).append('\n');
    corrupted(etcd, s).ifPresent(text -> out.append(text).append('\n'));

    List<List<String>> conditions = new ArrayList<>();
    conditions.add(List.of("CONDITION", "STATUS", "REASON", "MESSAGE"));
    for (Condition c : s.getConditions() == null ? List.<Condition>of() : s.getConditions()) {
      conditions.add(List.of(text(c.getType()), text(c.getStatus()), text(c.getReason()),
          text(c.getMessage())));
    }
    out.append(table(conditions));
    volumeHint(etcd, s).ifPresent(h -> out.append('\n').append(h).append('\n'));
    if (s.getLastErrors() != null && !s.getLastErrors().isEmpty()) {
      out.append("\nLast errors:\n");
      s.getLastErrors().forEach(e -> out.append("  ").append(e.getCode()).append(": ")
          .append(e.getDescription()).append('\n'));
    }
    List<EtcdOpsTask> own = tasks.stream()
        .filter(t -> t.getSpec() != null
            && etcd.getMetadata().getName().equals(t.getSpec().getEtcdName()))
        .sorted(Comparator.comparing(t -> t.getMetadata().getCreationTimestamp(),
            Comparator.nullsLast(Comparator.naturalOrder())))
        .toList();
    if (!own.isEmpty()) {
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("TASK", "OPERATION", "STATE", "STARTED", "LAST"));
      for (EtcdOpsTask t : own) {
        EtcdOpsTaskStatus ts = t.getStatus() == null ? new EtcdOpsTaskStatus() : t.getStatus();
        rows.add(List.of(t.getMetadata().getName(),
            TaskKind.of(t).stream().findFirst().map(TaskKind::field).orElse("-"),
            text(ts.getState()), text(ts.getStartedAt()), last(ts)));
      }
      out.append('\n').append(table(rows));
    }
    return out.toString();
  }

  /**
   * "Space: db 45Mi (in use 12Mi) of quota 64Mi, volume 2Gi (1900Mi free); growing 30Mi/h at
   * 25 writes/s; quota in ~30m, volume full in ~2d" and the last capacity action.
   */
  static Optional<String> space(CapacityStatus c) {
    if (c == null || c.getDbSize() == null) {
      return Optional.empty();
    }
    StringBuilder line = new StringBuilder("Space: db ").append(c.getDbSize())
        .append(" (in use ").append(text(c.getDbSizeInUse())).append(") of quota ")
        .append(text(c.getQuota()));
    if (c.getRaisedQuota() != null) {
      line.append(" (raised)");
    }
    if (c.getVolumeSize() != null) {
      line.append(", volume ").append(c.getVolumeSize()).append(" (")
          .append(text(c.getVolumeFree())).append(" free)");
    }
    line.append("; growing ").append(text(c.getGrowthPerHour())).append("/h at ")
        .append(text(c.getWritesPerSecond())).append(" writes/s; ")
        .append(c.getTimeToQuota() == null ? "quota not approached"
            : "quota in ~" + c.getTimeToQuota())
        .append(c.getTimeToVolumeFull() == null ? ""
            : ", volume full in ~" + c.getTimeToVolumeFull());
    if (c.getLastAction() != null) {
      line.append("\nLast capacity action (").append(text(c.getLastActionTime())).append("): ")
          .append(c.getLastAction());
    }
    return Optional.of(line.toString());
  }

  /** Each member etcd's corruption checks found differing, what they found and the cure. */
  private static Optional<String> corrupted(Etcd etcd, EtcdStatus s) {
    List<EtcdMemberStatus> members = s.getMembers() == null ? List.of() : s.getMembers();
    String text = members.stream().filter(m -> m.getDataCorruption() != null)
        .map(m -> "Data corrupted on " + m.getName() + ": " + m.getDataCorruption()
            + "\n  Cure: kubectl druid replace-member-volume " + etcd.getMetadata().getName()
            + " " + m.getName() + "\n")
        .collect(java.util.stream.Collectors.joining());
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }

  /** The first error if there is one, else what the task did last. */
  private static String last(EtcdOpsTaskStatus s) {
    if (s.getLastErrors() != null && !s.getLastErrors().isEmpty()) {
      return s.getLastErrors().get(0).getCode() + ": " + s.getLastErrors().get(0).getDescription();
    }
    return s.getLastOperation() == null ? "-" : text(s.getLastOperation().getDescription());
  }

  /**
   * The volume part: a volume operation in progress (what it does now and what is done), or a
   * pending change with what it will do and the command that confirms it.
   */
  private static Optional<String> volumeHint(Etcd etcd, EtcdStatus s) {
    VolumeOperation op = s.getVolumeOperation();
    if (op != null && !op.isFinished()) {
      return Optional.of("Volume operation in progress: " + TaskProgress.volumeProgress(op, etcd)
          + (op.getCompletedMembers() == null || op.getCompletedMembers().isEmpty() ? ""
              : " (done: " + String.join(", ", op.getCompletedMembers()) + ")")
          + (op.getTask() == null ? "" : ", task " + op.getTask()));
    }
    return Condition.find(s.getConditions(), ConditionTypes.VOLUMES_UP_TO_DATE)
        .filter(c -> "AwaitingConfirmation".equals(c.getReason())
            || "NoBackupStore".equals(c.getReason()))
        .map(c -> "NoBackupStore".equals(c.getReason())
            ? "Pending volume change that cannot be done: " + c.getMessage()
            : "Pending volume change: " + c.getMessage().replaceFirst(" Confirm with: .*$", "")
                + "\nConfirm it with:\n  kubectl -n " + etcd.getMetadata().getNamespace()
                + " annotate etcd " + etcd.getMetadata().getName() + " "
                + Annotations.CONFIRM_VOLUME_REPLACEMENT + "=" + etcd.getMetadata().getGeneration()
                + " --overwrite");
  }

  /**
   * The member's status, with the reason when it is not Ready (e.g. "NotReady (Restoring)";
   * how far a restore is stands in the AllMembersReady message).
   */
  private static String status(EtcdMemberStatus m) {
    return "Ready".equals(m.getStatus()) || m.getReason() == null ? text(m.getStatus())
        : text(m.getStatus()) + " (" + m.getReason() + ")";
  }

  private static String text(Object o) {
    return o == null ? "-" : Objects.toString(o);
  }

  static String table(List<List<String>> rows) {
    int cols = rows.get(0).size();
    int[] width = new int[cols];
    rows.forEach(r -> {
      for (int i = 0; i < cols; i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    });
    StringBuilder sb = new StringBuilder();
    for (List<String> r : rows) {
      for (int i = 0; i < cols; i++) {
        sb.append(i == cols - 1 ? r.get(i) : String.format("%-" + (width[i] + 2) + "s", r.get(i)));
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
