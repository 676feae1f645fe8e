package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import cloud.gardener.druid.api.types.Quantities;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import java.util.Map;

/** The desired state of an etcd cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "has(self.memberNamePrefix) == has(oldSelf.memberNamePrefix)"
        + " && (!has(self.memberNamePrefix) || self.memberNamePrefix == oldSelf.memberNamePrefix)",
    message = "spec.memberNamePrefix is immutable",
    fieldPath = ".memberNamePrefix")
public class EtcdSpec {

  @JsonPropertyDescription("Deprecated: the operator selects members by its own labels.")
  private LabelSelector selector;

  @Required
  @JsonPropertyDescription("Labels applied to every member pod.")
  private Map<String, String> labels;

  @JsonPropertyDescription("Annotations applied to every member pod.")
  private Map<String, String> annotations;

  @Required
  private EtcdConfig etcd;

  @Required
  private BackupSpec backup;

  private SharedConfig sharedConfig;

  private SchedulingConstraints schedulingConstraints;

  @Required
  @Min(0)
  @SpecReplicas
  @JsonPropertyDescription("Number of members; 0 hibernates the cluster.")
  private Integer replicas;

  private String priorityClassName;

  @JsonPropertyDescription("StorageClass of the member volumes; changing it replaces the volumes"
      + " after confirmation.")
  private String storageClass;

  @ValidationRule(value = Quantities.RULE, message = Quantities.MESSAGE)
  @JsonPropertyDescription("Size of each member volume (default 16Gi).")
  private Quantity storageCapacity;

  @JsonPropertyDescription("Name prefix of the member PVCs (<template>-<etcd>-<i>); defaults to"
      + " the Etcd name.")
  private String volumeClaimTemplate;

  private Boolean runAsRoot;

  @Size(max = 63)
  @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
  @JsonPropertyDescription("Prefix of member names (<prefix>-<i>); defaults to the Etcd name."
      + " Immutable.")
  private String memberNamePrefix;

  @JsonPropertyDescription("What hibernation (replicas: 0) does besides stopping the members.")
  private HibernationSpec hibernation;

  public LabelSelector getSelector() {
    return selector;
  }

  public void setSelector(LabelSelector selector) {
    this.selector = selector;
  }

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  public Map<String, String> getAnnotations() {
    return annotations;
  }

  public void setAnnotations(Map<String, String> annotations) {
    this.annotations = annotations;
  }

  public EtcdConfig getEtcd() {
    return etcd;
  }

  public void setEtcd(EtcdConfig etcd) {
    this.etcd = etcd;
  }

  public BackupSpec getBackup() {
    return backup;
  }

  public void setBackup(BackupSpec backup) {
    this.backup = backup;
  }

  public SharedConfig getSharedConfig() {
    return sharedConfig;
  }

  public void setSharedConfig(SharedConfig sharedConfig) {
    this.sharedConfig = sharedConfig;
  }

  public SchedulingConstraints getSchedulingConstraints() {
    return schedulingConstraints;
  }

  public void setSchedulingConstraints(SchedulingConstraints schedulingConstraints) {
    this.schedulingConstraints = schedulingConstraints;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public String getPriorityClassName() {
    return priorityClassName;
  }

  public void setPriorityClassName(String priorityClassName) {
    this.priorityClassName = priorityClassName;
  }

  public String getStorageClass() {
    return storageClass;
  }

  public void setStorageClass(String storageClass) {
    this.storageClass = storageClass;
  }

  public Quantity getStorageCapacity() {
    return storageCapacity;
  }

  public void setStorageCapacity(Quantity storageCapacity) {
    this.storageCapacity = storageCapacity;
  }

  public String getVolumeClaimTemplate() {
    return volumeClaimTemplate;
  }

  public void setVolumeClaimTemplate(String volumeClaimTemplate) {
    this.volumeClaimTemplate = volumeClaimTemplate;
  }

  public Boolean getRunAsRoot() {
    return runAsRoot;
  }

  public void setRunAsRoot(Boolean runAsRoot) {
    this.runAsRoot = runAsRoot;
  }

  public String getMemberNamePrefix() {
    return memberNamePrefix;
  }

  public void setMemberNamePrefix(String memberNamePrefix) {
    this.memberNamePrefix = memberNamePrefix;
  }

  public HibernationSpec getHibernation() {
    return hibernation;
  }

  public void setHibernation(HibernationSpec hibernation) {
    this.hibernation = hibernation;
  }
}
