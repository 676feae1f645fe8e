package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;


/** One member of the cluster as last observed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdMemberStatus {

  private String name;

  @JsonPropertyDescription("The etcd member id in hex.")
  private String id;

  @JsonPropertyDescription("Leader, Member or Learner.")
  private String role;

  @JsonPropertyDescription("Ready, NotReady or Unknown.")
  private String status;

  private String reason;

  private String lastTransitionTime;

  @JsonPropertyDescription("The member-revision label of the member pod.")
  private String memberRevision;

  @JsonPropertyDescription("The volume-revision label of the member PVC.")
  private String volumeRevision;

  @JsonPropertyDescription("Pod and volume match the desired revisions and the PVC is bound.")
  private Boolean updated;

  @JsonPropertyDescription("Extension of this operator: the etcd version the member runs, as its"
      + " etcd reports it (e.g. 3.6.16).")
  private String etcdVersion;

  @JsonPropertyDescription("Set only while the member's agent does not answer the operator:"
      + " the time of the first observation without an answer. id and role are then the last"
      + " known ones (extension of this operator).")
  private String agentNotAnsweringSince;

  @JsonPropertyDescription("Set while etcd's corruption checks found this member's data differs"
      + " from its peers' (its initial check refused it, or a CORRUPT alarm names it), with"
      + " what was found; the cure is the replaceMemberVolume EtcdOpsTask (extension of this"
      + " operator).")
  private String dataCorruption;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }

  public String getRole() {
    return role;
  }

  public void setRole(String role) {
    this.role = role;
  }

  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
  }

  public String getReason() {
    return reason;
  }

  public void setReason(String reason) {
    this.reason = reason;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  public String getMemberRevision() {
    return memberRevision;
  }

  public void setMemberRevision(String memberRevision) {
    this.memberRevision = memberRevision;
  }

  public String getVolumeRevision() {
    return volumeRevision;
  }

  public void setVolumeRevision(String volumeRevision) {
    this.volumeRevision = volumeRevision;
  }

  public Boolean getUpdated() {
    return updated;
  }

  public void setUpdated(Boolean updated) {
    this.updated = updated;
  }

  public String getAgentNotAnsweringSince() {
    return agentNotAnsweringSince;
  }

  public void setAgentNotAnsweringSince(String agentNotAnsweringSince) {
    this.agentNotAnsweringSince = agentNotAnsweringSince;
  }

  public String getEtcdVersion() {
    return etcdVersion;
  }

  public void setEtcdVersion(String etcdVersion) {
    this.etcdVersion = etcdVersion;
  }

  public String getDataCorruption() {
    return dataCorruption;
  }

  public void setDataCorruption(String dataCorruption) {
    this.dataCorruption = dataCorruption;
  }
}
