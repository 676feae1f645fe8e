package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.autoscaling.v1.CrossVersionObjectReference;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.List;

/** The observed state of an etcd cluster; written by one writer from one observation. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdStatus {

  @JsonPropertyDescription("The generation whose rollout the conditions describe.")
  private Long observedGeneration;

  @JsonPropertyDescription("Upstream: reference to the workload. Unused here (no StatefulSet).")
  private CrossVersionObjectReference etcd;

  // bounds the cost of upstream's CEL rules that look at the conditions
  @Size(max = 32)
  private List<Condition> conditions;

  private Integer currentReplicas;

  @StatusReplicas
  private Integer replicas;

  private Integer readyReplicas;

  private Boolean ready;

  @LabelSelector
  @JsonPropertyDescription("Label selector of the member pods, in string form (scale subresource).")
  private String selector;

  private List<LastError> lastErrors;

  @JsonPropertyDescription("type: Create, Reconcile or Delete; state: Processing, Succeeded,"
      + " Error or Requeue.")
  private LastOperation lastOperation;

  private List<EtcdMemberStatus> members;

  @JsonPropertyDescription("Progress of a volume change (addition).")
  private VolumeOperation volumeOperation;

  @JsonPropertyDescription("Extension of this operator: the database's space, its forecast and"
      + " the capacity actions taken (docs/capacity.md).")
  private CapacityStatus capacity;

  @JsonPropertyDescription("Extension of this operator: etcd's cluster version (its /version"
      + " etcdcluster, e.g. 3.6.0): the minor every member speaks, which moves up only once every"
      + " member runs the newer etcd and down only through etcd's downgrade.")
  private String etcdClusterVersion;

  @JsonPropertyDescription("Extension of this operator: set while etcd's downgrade is enabled"
      + " (the target minor, e.g. 3.6); the members then roll back to it one by one.")
  private String etcdDowngradeTarget;

  @JsonPropertyDescription("Extension of this operator: the recovery point as revisions, how many"
      + " revisions the cluster is ahead of the newest revision a restore drill proved"
      + " restorable (rounded down to two significant digits); absent without a store, before"
      + " a drill proved one, and after a failed drill (docs/backup-verification.md).")
  private Long verifiedBackupRevisionLag;

  @JsonPropertyDescription("Upstream: whether peer TLS is enabled on every member. Not written"
      + " by this operator (see the conditions and spec.etcd.peerUrlTls).")
  private Boolean peerUrlTLSEnabled;

  @JsonPropertyDescription("Upstream: label selector of the member pods. Not written by this"
      + " operator (status.selector holds it in string form).")
  private io.fabric8.kubernetes.api.model.LabelSelector labelSelector;

  @JsonPropertyDescription("Upstream: the source cluster joined through"
      + " spec.etcd.bootstrapWithExistingCluster. Never written here (the join is not built).")
  private BootstrapStatus bootstrapWithExistingCluster;

  @JsonPropertyDescription("Extension of this operator: per TLS endpoint the operator carries a"
      + " CA rotation for (peer), its step and what the members trust and serve"
      + " (docs/certificates.md).")
  private List<CertificateRotation> certificates;

  public List<CertificateRotation> getCertificates() {
    return certificates;
  }

  public void setCertificates(List<CertificateRotation> certificates) {
    this.certificates = certificates;
  }

  public CapacityStatus getCapacity() {
    return capacity;
  }

  public void setCapacity(CapacityStatus capacity) {
    this.capacity = capacity;
  }

  public Boolean getPeerUrlTLSEnabled() {
    return peerUrlTLSEnabled;
  }

  public void setPeerUrlTLSEnabled(Boolean peerUrlTLSEnabled) {
    this.peerUrlTLSEnabled = peerUrlTLSEnabled;
  }

  public io.fabric8.kubernetes.api.model.LabelSelector getLabelSelector() {
    return labelSelector;
  }

  public void setLabelSelector(io.fabric8.kubernetes.api.model.LabelSelector labelSelector) {
    this.labelSelector = labelSelector;
  }

  public BootstrapStatus getBootstrapWithExistingCluster() {
    return bootstrapWithExistingCluster;
  }

  public void setBootstrapWithExistingCluster(BootstrapStatus bootstrapWithExistingCluster) {
    this.bootstrapWithExistingCluster = bootstrapWithExistingCluster;
  }

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public CrossVersionObjectReference getEtcd() {
    return etcd;
  }

  public void setEtcd(CrossVersionObjectReference etcd) {
    this.etcd = etcd;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public Integer getCurrentReplicas() {
    return currentReplicas;
  }

  public void setCurrentReplicas(Integer currentReplicas) {
    this.currentReplicas = currentReplicas;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public Integer getReadyReplicas() {
    return readyReplicas;
  }

  public void setReadyReplicas(Integer readyReplicas) {
    this.readyReplicas = readyReplicas;
  }

  public Boolean getReady() {
    return ready;
  }

  public void setReady(Boolean ready) {
    this.ready = ready;
  }

  public String getSelector() {
    return selector;
  }

  public void setSelector(String selector) {
    this.selector = selector;
  }

  public List<LastError> getLastErrors() {
    return lastErrors;
  }

  public void setLastErrors(List<LastError> lastErrors) {
    this.lastErrors = lastErrors;
  }

  public LastOperation getLastOperation() {
    return lastOperation;
  }

  public void setLastOperation(LastOperation lastOperation) {
    this.lastOperation = lastOperation;
  }

  public List<EtcdMemberStatus> getMembers() {
    return members;
  }

  public void setMembers(List<EtcdMemberStatus> members) {
    this.members = members;
  }

  public VolumeOperation getVolumeOperation() {
    return volumeOperation;
  }

  public void setVolumeOperation(VolumeOperation volumeOperation) {
    this.volumeOperation = volumeOperation;
  }

  public String getEtcdClusterVersion() {
    return etcdClusterVersion;
  }

  public void setEtcdClusterVersion(String etcdClusterVersion) {
    this.etcdClusterVersion = etcdClusterVersion;
  }

  public Long getVerifiedBackupRevisionLag() {
    return verifiedBackupRevisionLag;
  }

  public void setVerifiedBackupRevisionLag(Long verifiedBackupRevisionLag) {
    this.verifiedBackupRevisionLag = verifiedBackupRevisionLag;
  }

  public String getEtcdDowngradeTarget() {
    return etcdDowngradeTarget;
  }

  public void setEtcdDowngradeTarget(String etcdDowngradeTarget) {
    this.etcdDowngradeTarget = etcdDowngradeTarget;
  }
}
