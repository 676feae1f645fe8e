package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.types.Quantities;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/** Configuration of the member agent: backups, restores and its own endpoint. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "!(has(self.deltaSnapshotPeriod) && has(self.garbageCollectionPeriod))"
        + " || duration(self.deltaSnapshotPeriod).getSeconds()"
        + " < duration(self.garbageCollectionPeriod).getSeconds()",
    message = "spec.backup.garbageCollectionPeriod must be greater than"
        + " spec.backup.deltaSnapshotPeriod",
    fieldPath = ".garbageCollectionPeriod")
public class BackupSpec {

  @Min(1)
  @Max(65535)
  @JsonPropertyDescription("Port of the agent HTTP API (default 8080).")
  private Integer port;

  private TLSConfig tls;

  private String image;

  @JsonPropertyDescription("The backup store; without it no snapshots are taken.")
  private StoreSpec store;

  private ResourceRequirements resources;

  private SnapshotCompactionSpec snapshotCompaction;

  @JsonPropertyDescription("Scheduled restore drills (addition).")
  private BackupVerificationSpec verification;

  @SchemaFrom(type = String.class)
  @Size(max = CronSchedule.MAX_LENGTH)
  @Pattern(CronSchedule.PATTERN)
  @ValidationRule(value = CronSchedule.RULE, message = CronSchedule.RULE_MESSAGE)
  @JsonPropertyDescription("Schedule of full snapshots as robfig/cron reads it (five fields,"
      + " @daily, @every 6h, ...; evaluated in UTC; default hourly).")
  private CronSchedule fullSnapshotSchedule;

  private GarbageCollectionPolicy garbageCollectionPolicy;

  @Min(1)
  private Integer maxBackupsLimitBasedGC;

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  private GoDuration garbageCollectionPeriod;

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  @JsonPropertyDescription("Period of delta snapshots (default 20s).")
  private GoDuration deltaSnapshotPeriod;

  @ValidationRule(value = Quantities.RULE, message = Quantities.MESSAGE)
  @JsonPropertyDescription("Size of buffered events that triggers a delta snapshot (default 10Mi).")
  private Quantity deltaSnapshotMemoryLimit;

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  private GoDuration deltaSnapshotRetentionPeriod;

  private CompressionSpec compression;

  private Boolean enableProfiling;

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  private GoDuration etcdSnapshotTimeout;

  private LeaderElectionSpec leaderElection;

  public Integer getPort() {
    return port;
  }

  public void setPort(Integer port) {
    this.port = port;
  }

  public TLSConfig getTls() {
    return tls;
  }

  public void setTls(TLSConfig tls) {
    this.tls = tls;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public StoreSpec getStore() {
    return store;
  }

  public void setStore(StoreSpec store) {
    this.store = store;
  }

  public ResourceRequirements getResources() {
    return resources;
  }

  public void setResources(ResourceRequirements resources) {
    this.resources = resources;
  }

  public BackupVerificationSpec getVerification() {
    return verification;
  }

  public void setVerification(BackupVerificationSpec verification) {
    this.verification = verification;
  }

  public SnapshotCompactionSpec getSnapshotCompaction() {
    return snapshotCompaction;
  }

  public void setSnapshotCompaction(SnapshotCompactionSpec snapshotCompaction) {
    this.snapshotCompaction = snapshotCompaction;
  }

  public CronSchedule getFullSnapshotSchedule() {
    return fullSnapshotSchedule;
  }

  public void setFullSnapshotSchedule(CronSchedule fullSnapshotSchedule) {
    this.fullSnapshotSchedule = fullSnapshotSchedule;
  }

  public GarbageCollectionPolicy getGarbageCollectionPolicy() {
    return garbageCollectionPolicy;
  }

  public void setGarbageCollectionPolicy(GarbageCollectionPolicy garbageCollectionPolicy) {
    this.garbageCollectionPolicy = garbageCollectionPolicy;
  }

  public Integer getMaxBackupsLimitBasedGC() {
    return maxBackupsLimitBasedGC;
  }

  public void setMaxBackupsLimitBasedGC(Integer maxBackupsLimitBasedGC) {
    this.maxBackupsLimitBasedGC = maxBackupsLimitBasedGC;
  }

  public GoDuration getGarbageCollectionPeriod() {
    return garbageCollectionPeriod;
  }

  public void setGarbageCollectionPeriod(GoDuration garbageCollectionPeriod) {
    this.garbageCollectionPeriod = garbageCollectionPeriod;
  }

  public GoDuration getDeltaSnapshotPeriod() {
    return deltaSnapshotPeriod;
  }

  public void setDeltaSnapshotPeriod(GoDuration deltaSnapshotPeriod) {
    this.deltaSnapshotPeriod = deltaSnapshotPeriod;
  }

  public Quantity getDeltaSnapshotMemoryLimit() {
    return deltaSnapshotMemoryLimit;
  }

  public void setDeltaSnapshotMemoryLimit(Quantity deltaSnapshotMemoryLimit) {
    this.deltaSnapshotMemoryLimit = deltaSnapshotMemoryLimit;
  }

  public GoDuration getDeltaSnapshotRetentionPeriod() {
    return deltaSnapshotRetentionPeriod;
  }

  public void setDeltaSnapshotRetentionPeriod(GoDuration deltaSnapshotRetentionPeriod) {
    this.deltaSnapshotRetentionPeriod = deltaSnapshotRetentionPeriod;
  }

  public CompressionSpec getCompression() {
    return compression;
  }

  public void setCompression(CompressionSpec compression) {
    this.compression = compression;
  }

  public Boolean getEnableProfiling() {
    return enableProfiling;
  }

  public void setEnableProfiling(Boolean enableProfiling) {
    this.enableProfiling = enableProfiling;
  }

  public GoDuration getEtcdSnapshotTimeout() {
    return etcdSnapshotTimeout;
  }

  public void setEtcdSnapshotTimeout(GoDuration etcdSnapshotTimeout) {
    this.etcdSnapshotTimeout = etcdSnapshotTimeout;
  }

  public LeaderElectionSpec getLeaderElection() {
    return leaderElection;
  }

  public void setLeaderElection(LeaderElectionSpec leaderElection) {
    this.leaderElection = leaderElection;
  }
}
