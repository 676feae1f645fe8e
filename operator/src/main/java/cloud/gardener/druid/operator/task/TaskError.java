package cloud.gardener.druid.operator.task;

/** Why a task was rejected or failed: a stable code and a description naming the field. */
public record TaskError(String code, String description) {

  public static final String INVALID_CONFIG = "ERR_INVALID_CONFIG";
  public static final String ETCD_NOT_FOUND = "ERR_ETCD_NOT_FOUND";
  public static final String ETCD_DELETING = "ERR_ETCD_DELETING";
  public static final String ETCD_HIBERNATED = "ERR_ETCD_HIBERNATED";
  public static final String BACKUP_NOT_ENABLED = "ERR_BACKUP_NOT_ENABLED";
  public static final String INVALID_MEMBER_NAME = "ERR_INVALID_MEMBER_NAME";
  public static final String NO_LEADER = "ERR_NO_LEADER";
  public static final String SNAPSHOT = "ERR_SNAPSHOT";
  public static final String DEFRAGMENT = "ERR_DEFRAGMENT";
  public static final String EXECUTION = "ERR_EXECUTION";
  public static final String MEMBERS_NOT_READY = "ERR_MEMBERS_NOT_READY";
  public static final String NOT_JOINED = "ERR_NOT_JOINED";
  /** Addition: a restore drill found a missing or corrupt piece, or other content. */
  public static final String BACKUP_VERIFICATION = "ERR_BACKUP_VERIFICATION";
  public static final String TIMEOUT = "ERR_TIMEOUT";
  public static final String TIME_TRAVEL = "ERR_TIME_TRAVEL";
  public static final String ETCD_EXISTS = "ERR_ETCD_EXISTS";
  public static final String VOLUME_OPERATION_FAILED = "ERR_VOLUME_OPERATION_FAILED";
}
