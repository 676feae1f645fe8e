package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The table of {@code status} without a name: one row per Etcd, as {@code kubectl get} prints. */
final class EtcdListReport {

  private EtcdListReport() {
  }

  static String render(List<Etcd> etcds, boolean namespaceColumn, boolean wide, Instant now) {
    List<List<String>> rows = new ArrayList<>();
    List<String> header = new ArrayList<>();
    if (namespaceColumn) {
      header.add("NAMESPACE");
    }
    header.addAll(List.of("NAME", "READY", "ROLLOUT", "AGE"));
    if (wide) {
      header.addAll(List.of("GENERATION", "OBSERVED", "LAST-OPERATION", "VOLUMES"));
    }
    rows.add(header);
    for (Etcd etcd : etcds) {
      EtcdStatus s = etcd.getStatus() == null ? new EtcdStatus() : etcd.getStatus();
      List<String> row = new ArrayList<>();
      if (namespaceColumn) {
        row.add(etcd.getMetadata().getNamespace());
      }
      row.add(etcd.getMetadata().getName());
      row.add((s.getReadyReplicas() == null ? 0 : s.getReadyReplicas()) + "/"
          + (etcd.getSpec().getReplicas() == null ? 0 : etcd.getSpec().getReplicas()));
      row.add(RolloutCompletion.isComplete(etcd) ? "Complete" : "InProgress");
      row.add(age(etcd.getMetadata().getCreationTimestamp(), now));
      if (wide) {
        row.add(String.valueOf(etcd.getMetadata().getGeneration()));
        row.add(s.getObservedGeneration() == null ? "-" : s.getObservedGeneration().toString());
        row.add(s.getLastOperation() == null ? "-" : s.getLastOperation().getType() + "/"
            + s.getLastOperation().getState());
        row.add(s.getVolumeOperation() == null || s.getVolumeOperation().isFinished() ? "-"
            : TaskProgress.volumeProgress(s.getVolumeOperation(), etcd));
      }
      rows.add(row);
    }
    return EtcdStatusReport.table(rows);
  }

  /** kubectl's short age: 45s, 12m, 5h, 3d. */
  static String age(String creationTimestamp, Instant now) {
    if (creationTimestamp == null) {
      return "-";
    }
    Duration d = Duration.between(Instant.parse(creationTimestamp), now);
    if (d.isNegative() || d.toSeconds() < 120) {
      return Math.max(0, d.toSeconds()) + "s";
    }
    if (d.toMinutes() < 120) {
      return d.toMinutes() + "m";
    }
    return d.toHours() < 48 ? d.toHours() + "h" : d.toDays() + "d";
  }
}
