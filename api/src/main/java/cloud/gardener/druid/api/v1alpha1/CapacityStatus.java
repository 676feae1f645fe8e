package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * Extension of this operator: the space of etcd's database and what the operator did about it
 * (docs/capacity.md). The figures are rounded (sizes to two significant digits, durations to a
 * coarse ladder) so that the status changes only when they change meaningfully.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CapacityStatus {

  @JsonPropertyDescription("The largest database among the members (etcd's dbSize).")
  private Quantity dbSize;

  @JsonPropertyDescription("The largest data in use among the members (etcd's dbSizeInUse).")
  private Quantity dbSizeInUse;

  @JsonPropertyDescription("The quota the members run with (spec.etcd.quota, or as raised).")
  private Quantity quota;

  @JsonPropertyDescription("The smallest volume among the members.")
  private Quantity volumeSize;

  @JsonPropertyDescription("The least free space on a member's volume.")
  private Quantity volumeFree;

  @JsonPropertyDescription("Writes (revisions) per second, the leader's, rounded.")
  private Long writesPerSecond;

  @JsonPropertyDescription("How fast the largest database grows, per hour.")
  private Quantity growthPerHour;

  @JsonPropertyDescription("When the database is forecast to reach the quota (rounded down, e.g."
      + " 30m, 2h); absent while it does not grow.")
  private String timeToQuota;

  @JsonPropertyDescription("When a member's volume is forecast to be full (rounded down); absent"
      + " while it does not fill.")
  private String timeToVolumeFull;

  @JsonPropertyDescription("The quota the operator raised spec.etcd.quota to (within"
      + " spec.etcd.capacity.maxQuota); the members run with it.")
  private Quantity raisedQuota;

  @JsonPropertyDescription("The volume size the operator grew spec.storageCapacity to, for a"
      + " raised quota.")
  private Quantity grownStorage;

  @JsonPropertyDescription("The revision the operator last compacted to (NOSPACE recovery).")
  private Long compactedRevision;

  @JsonPropertyDescription("The last capacity action and the forecast that triggered it.")
  private String lastAction;

  @JsonPropertyDescription("When the last capacity action was taken (RFC 3339).")
  private String lastActionTime;

  public Quantity getDbSize() {
    return dbSize;
  }

  public void setDbSize(Quantity dbSize) {
    this.dbSize = dbSize;
  }

  public Quantity getDbSizeInUse() {
    return dbSizeInUse;
  }

  public void setDbSizeInUse(Quantity dbSizeInUse) {
    this.dbSizeInUse = dbSizeInUse;
  }

  public Quantity getQuota() {
    return quota;
  }

  public void setQuota(Quantity quota) {
    this.quota = quota;
  }

  public Quantity getVolumeSize() {
    return volumeSize;
  }

  public void setVolumeSize(Quantity volumeSize) {
    this.volumeSize = volumeSize;
  }

  public Quantity getVolumeFree() {
    return volumeFree;
  }

  public void setVolumeFree(Quantity volumeFree) {
    this.volumeFree = volumeFree;
  }

  public Long getWritesPerSecond() {
    return writesPerSecond;
  }

  public void setWritesPerSecond(Long writesPerSecond) {
    this.writesPerSecond = writesPerSecond;
  }

  public Quantity getGrowthPerHour() {
    return growthPerHour;
  }

  public void setGrowthPerHour(Quantity growthPerHour) {
    this.growthPerHour = growthPerHour;
  }

  public String getTimeToQuota() {
    return timeToQuota;
  }

  public void setTimeToQuota(String timeToQuota) {
    this.timeToQuota = timeToQuota;
  }

  public String getTimeToVolumeFull() {
    return timeToVolumeFull;
  }

  public void setTimeToVolumeFull(String timeToVolumeFull) {
    this.timeToVolumeFull = timeToVolumeFull;
  }

  public Quantity getRaisedQuota() {
    return raisedQuota;
  }

  public void setRaisedQuota(Quantity raisedQuota) {
    this.raisedQuota = raisedQuota;
  }

  public Quantity getGrownStorage() {
    return grownStorage;
  }

  public void setGrownStorage(Quantity grownStorage) {
    this.grownStorage = grownStorage;
  }

  public Long getCompactedRevision() {
    return compactedRevision;
  }

  public void setCompactedRevision(Long compactedRevision) {
    this.compactedRevision = compactedRevision;
  }

  public String getLastAction() {
    return lastAction;
  }

  public void setLastAction(String lastAction) {
    this.lastAction = lastAction;
  }

  public String getLastActionTime() {
    return lastActionTime;
  }

  public void setLastActionTime(String lastActionTime) {
    this.lastActionTime = lastActionTime;
  }
}
