package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;

/** The operation of an EtcdOpsTask: exactly one field is set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "[has(self.onDemandSnapshot), has(self.defragment), has(self.replaceMemberVolume),"
        + " has(self.recoverFromQuorumLoss), has(self.verifyBackups),"
        + " has(self.retireSourceMembers), has(self.restoreInto),"
        + " has(self.undelete)].filter(x, x).size() == 1",
    message = "spec.config must set exactly one operation: onDemandSnapshot, defragment,"
        + " replaceMemberVolume, recoverFromQuorumLoss, verifyBackups, retireSourceMembers,"
        + " restoreInto or undelete")
@ValidationRule(value = "self == oldSelf", message = "spec.config is immutable")
public class EtcdOpsTaskConfig {

  private OnDemandSnapshotConfig onDemandSnapshot;

  @JsonPropertyDescription("Defragment every member, followers first (addition).")
  private DefragmentConfig defragment;

  @JsonPropertyDescription("Replace the volume of one member (addition).")
  private ReplaceMemberVolumeConfig replaceMemberVolume;

  @JsonPropertyDescription("Rebuild a cluster that lost quorum for good (addition).")
  private RecoverFromQuorumLossConfig recoverFromQuorumLoss;

  @JsonPropertyDescription("Run a restore drill of the Etcd's backups now (addition).")
  private VerifyBackupsConfig verifyBackups;

  @JsonPropertyDescription("Remove the members of the existing cluster the Etcd joined from the"
      + " etcd membership (addition).")
  private RetireSourceMembersConfig retireSourceMembers;

  public RetireSourceMembersConfig getRetireSourceMembers() {
    return retireSourceMembers;
  }

  public void setRetireSourceMembers(RetireSourceMembersConfig retireSourceMembers) {
    this.retireSourceMembers = retireSourceMembers;
  }

  @JsonPropertyDescription("Restore this Etcd at a revision or time into a new Etcd "
      + "(addition).")
  private RestoreIntoConfig restoreInto;

  @JsonPropertyDescription("Bring back the keys under a prefix as they were at a revision or "
      + "time (addition).")
  private UndeleteConfig undelete;

  public RestoreIntoConfig getRestoreInto() {
    return restoreInto;
  }

  public void setRestoreInto(RestoreIntoConfig restoreInto) {
    this.restoreInto = restoreInto;
  }

  public UndeleteConfig getUndelete() {
    return undelete;
  }

  public void setUndelete(UndeleteConfig undelete) {
    this.undelete = undelete;
  }

  public VerifyBackupsConfig getVerifyBackups() {
    return verifyBackups;
  }

  public void setVerifyBackups(VerifyBackupsConfig verifyBackups) {
    this.verifyBackups = verifyBackups;
  }

  public OnDemandSnapshotConfig getOnDemandSnapshot() {
    return onDemandSnapshot;
  }

  public void setOnDemandSnapshot(OnDemandSnapshotConfig onDemandSnapshot) {
    this.onDemandSnapshot = onDemandSnapshot;
  }

  public DefragmentConfig getDefragment() {
    return defragment;
  }

  public void setDefragment(DefragmentConfig defragment) {
    this.defragment = defragment;
  }

  public ReplaceMemberVolumeConfig getReplaceMemberVolume() {
    return replaceMemberVolume;
  }

  public void setReplaceMemberVolume(ReplaceMemberVolumeConfig replaceMemberVolume) {
    this.replaceMemberVolume = replaceMemberVolume;
  }

  public RecoverFromQuorumLossConfig getRecoverFromQuorumLoss() {
    return recoverFromQuorumLoss;
  }

  public void setRecoverFromQuorumLoss(RecoverFromQuorumLossConfig recoverFromQuorumLoss) {
    this.recoverFromQuorumLoss = recoverFromQuorumLoss;
  }
}
