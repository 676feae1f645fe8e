package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import java.util.Map;

/** Source, target and filters of a backup copy. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdCopyBackupsTaskSpec {

  @Required
  private StoreSpec sourceStore;

  @Required
  private StoreSpec targetStore;

  @Min(0)
  @JsonPropertyDescription("Copy only backups younger than this many days.")
  private Integer maxBackupAge;

  @Min(0)
  @JsonPropertyDescription("Copy at most this many of the newest full snapshots (with deltas).")
  private Integer maxBackups;

  private WaitForFinalSnapshotSpec waitForFinalSnapshot;

  private Map<String, String> podLabels;

  public StoreSpec getSourceStore() {
    return sourceStore;
  }

  public void setSourceStore(StoreSpec sourceStore) {
    this.sourceStore = sourceStore;
  }

  public StoreSpec getTargetStore() {
    return targetStore;
  }

  public void setTargetStore(StoreSpec targetStore) {
    this.targetStore = targetStore;
  }

  public Integer getMaxBackupAge() {
    return maxBackupAge;
  }

  public void setMaxBackupAge(Integer maxBackupAge) {
    this.maxBackupAge = maxBackupAge;
  }

  public Integer getMaxBackups() {
    return maxBackups;
  }

  public void setMaxBackups(Integer maxBackups) {
    this.maxBackups = maxBackups;
  }

  public WaitForFinalSnapshotSpec getWaitForFinalSnapshot() {
    return waitForFinalSnapshot;
  }

  public void setWaitForFinalSnapshot(WaitForFinalSnapshotSpec waitForFinalSnapshot) {
    this.waitForFinalSnapshot = waitForFinalSnapshot;
  }

  public Map<String, String> getPodLabels() {
    return podLabels;
  }

  public void setPodLabels(Map<String, String> podLabels) {
    this.podLabels = podLabels;
  }
}
