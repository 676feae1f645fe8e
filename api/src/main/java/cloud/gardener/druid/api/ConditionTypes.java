package cloud.gardener.druid.api;

/**
 * Types of the conditions of an Etcd; those that make a rollout complete:
 * {@link RolloutCompletion}.
 */
public final class ConditionTypes {

  public static final String READY = "Ready";
  public static final String ALL_MEMBERS_READY = "AllMembersReady";
  public static final String ALL_MEMBERS_UPDATED = "AllMembersUpdated";
  public static final String BACKUP_READY = "BackupReady";
  public static final String DATA_VOLUMES_READY = "DataVolumesReady";
  public static final String CLUSTER_ID_MISMATCH = "ClusterIDMismatch";
  /**
   * Upstream's: the outcome of the last snapshot compaction (a compaction Job or the full
   * snapshot taken instead); written by the compaction controller only.
   */
  public static final String LAST_SNAPSHOT_COMPACTION_SUCCEEDED = "LastSnapshotCompactionSucceeded";
  /** Addition: no volume change is pending. */
  public static final String VOLUMES_UP_TO_DATE = "VolumesUpToDate";
  /** Addition: present (True) while the spec sets upstream fields this operator ignores. */
  public static final String UPSTREAM_FIELDS_IGNORED = "UpstreamFieldsIgnored";
  /** Addition: what the newest restore drill proved (docs/backup-verification.md). */
  public static final String BACKUP_VERIFIED = "BackupVerified";
  /** Upstream's: the members joined the existing cluster of spec.etcd.bootstrapWithExistingCluster. */
  public static final String BOOTSTRAPPED_WITH_EXISTING_CLUSTER =
      "BootstrappedWithExistingCluster";

  /**
   * Addition: whether the database has room (docs/capacity.md): False while etcd's NOSPACE
   * alarm is raised or the quota is forecast to be reached with nothing left to do about it.
   */
  public static final String SPACE_AVAILABLE = "SpaceAvailable";

  /**
   * Addition: False while etcd's corruption checks report a member's data differs from its
   * peers' (its initial check refused the member, or a CORRUPT alarm names it), naming the
   * member (docs/backup-verification.md).
   */
  public static final String DATA_CONSISTENT = "DataConsistent";

  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  private ConditionTypes() {
  }
}
