package cloud.gardener.druid.operator.status;

import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import cloud.gardener.druid.api.v1alpha1.CertificateRotation;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.cache.ReadYourWrites;
import cloud.gardener.druid.operator.observe.VolumeRecords;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one writer of an Etcd's status records: the current volume operation
 * ({@code status.volumeOperation}), the capacity flow's record ({@link #recordCapacity}) and
 * the step of a CA rotation ({@link #recordCertificates}). A
 * volume step records it here before its next disruptive step, and the observation reads it
 * here ({@link VolumeRecords}). The Etcd as last written is kept, because the primary cache
 * may not show the write yet and a volume flow must never act on an older record than the
 * newest; the status computed after the step copies the observed record.
 */
public final class VolumeRecorder implements VolumeRecords {

  private final StatusWriter writer;
  private final Map<String, Etcd> written = new ConcurrentHashMap<>();

  public VolumeRecorder(KubernetesClient client) {
    this.writer = new StatusWriter(client);
  }

  /** Writes {@code operation} as the Etcd's volume operation, the rest of its status as is. */
  public void record(Etcd etcd, VolumeOperation operation) {
    Etcd result = writer.decideAndWrite(latest(etcd), e -> with(e.getStatus(), operation));
    written.put(result.getMetadata().getUid(), result);
  }

  /**
   * Writes the capacity flow's record (status.capacity: a raised quota, grown storage, the
   * compacted revision, the last action) as {@code change} makes it of the current one, the
   * rest of the status as is. It goes through this writer because the quota and the volume
   * size the members are built with follow from it ({@code model.EtcdDefaults}): a reconcile
   * must never build them from an older record than the newest ({@link #latest}).
   */
  public void recordCapacity(Etcd etcd, UnaryOperator<CapacityStatus> change) {
    Etcd result = writer.decideAndWrite(latest(etcd), e -> {
      EtcdStatus next = copy(e.getStatus());
      next.setCapacity(change.apply(next.getCapacity() == null ? new CapacityStatus()
          : next.getCapacity()));
      return next;
    });
    written.put(result.getMetadata().getUid(), result);
  }

  /**
   * Writes {@code rotation} as the record of its TLS endpoint in status.certificates (the step
   * of a CA rotation, recorded before it is taken), the rest of the status as is but
   * lastOperation, which is Processing with any step but Completed.
   */
  public void recordCertificates(Etcd etcd, CertificateRotation rotation) {
    Etcd result = writer.decideAndWrite(latest(etcd), e -> {
      EtcdStatus next = copy(e.getStatus());
      List<CertificateRotation> all = new ArrayList<>();
      if (next.getCertificates() != null) {
        next.getCertificates().stream()
            .filter(c -> !Objects.equals(c.getTls(), rotation.getTls())).forEach(all::add);
      }
      all.add(rotation);
      next.setCertificates(all);
      if (!CertificateRotation.PHASE_COMPLETED.equals(rotation.getPhase())
          && next.getLastOperation() != null) {
        // with the step: no status version shows a step under a rollout that succeeded
        next.getLastOperation().setState("Processing");
        next.getLastOperation().setDescription("peer certificates: " + rotation.getMessage());
      }
      return next;
    });
    written.put(result.getMetadata().getUid(), result);
  }

  @Override
  public Optional<VolumeOperation> current(Etcd etcd) {
    return Optional.ofNullable(latest(etcd).getStatus()).map(EtcdStatus::getVolumeOperation);
  }

  /** {@code etcd}, or the Etcd as this recorder last wrote it when that is newer. */
  public Etcd latest(Etcd etcd) {
    Etcd last = written.get(etcd.getMetadata().getUid());
    return last != null && !ReadYourWrites.atLeast(etcd.getMetadata().getResourceVersion(),
        last.getMetadata().getResourceVersion()) ? last : etcd;
  }

  /** Forgets a deleted Etcd. */
  public void forget(Etcd etcd) {
    written.remove(etcd.getMetadata().getUid());
  }

  private static EtcdStatus with(EtcdStatus status, VolumeOperation operation) {
    EtcdStatus next = copy(status);
    next.setVolumeOperation(operation);
    return next;
  }

  private static EtcdStatus copy(EtcdStatus status) {
    return status == null ? new EtcdStatus()
        : Serialization.jsonMapper().convertValue(status, EtcdStatus.class);
  }
}
