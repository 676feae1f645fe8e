package cloud.gardener.druid.api.agent;

/**
 * Paths and query parameters of the member agent's HTTP API, shared by the agent (server)
 * and the operator (client); the bodies are the records of this package. The first group
 * follows etcd-backup-restore; the member group is ours.
 */
public final class AgentApi {

  public static final String HEALTHZ = "/healthz";
  public static final String READYZ = "/readyz";
  public static final String INITIALIZATION_START = "/initialization/start";
  public static final String INITIALIZATION_STATUS = "/initialization/status";
  public static final String SNAPSHOT_FULL = "/snapshot/full";
  public static final String SNAPSHOT_DELTA = "/snapshot/delta";
  public static final String SNAPSHOT_LATEST = "/snapshot/latest";
  /** GET: the snapshot being written, or the last one ({@link SnapshotProgress}); 404 before it. */
  public static final String SNAPSHOT_PROGRESS = "/snapshot/progress";
  public static final String CONFIG = "/config";
  public static final String METRICS = "/metrics";
  /** GET: this member's view ({@link MemberReport}); 503 while etcd does not run. */
  public static final String MEMBER_STATUS = "/member/status";
  /** POST ?to=memberIdHex: move etcd leadership from this member (the leader) to another. */
  public static final String MEMBER_MOVE_LEADER = "/member/move-leader";
  /** POST ?id=memberIdHex: promote a learner once it is in sync. */
  public static final String MEMBER_PROMOTE = "/member/promote";
  /** POST ?id=memberIdHex: remove a member from the etcd membership. */
  public static final String MEMBER_REMOVE = "/member/remove";
  /**
   * POST ?action=validate|enable|cancel&amp;version=3.6: etcd's downgrade protocol through this
   * member ({@link Downgraded}); 409 with etcd's reason when etcd refuses.
   */
  public static final String CLUSTER_DOWNGRADE = "/cluster/downgrade";
  /** Query parameter of the downgrade: validate, enable or cancel. */
  public static final String PARAM_ACTION = "action";
  /** Query parameter of the downgrade: the target minor, e.g. 3.6. */
  public static final String PARAM_VERSION = "version";
  /**
   * POST ?revision=N (default: the current revision): compact etcd's key history through this
   * member ({@link Compacted}); the capacity flow's NOSPACE recovery, only when the Etcd allows it.
   */
  public static final String CLUSTER_COMPACT = "/cluster/compact";
  /** POST: disarm etcd's NOSPACE alarms ({@link AlarmsDisarmed}). */
  public static final String CLUSTER_ALARMS_DISARM = "/cluster/alarms/disarm";
  /** Query parameter of the compaction: the revision. */
  public static final String PARAM_REVISION = "revision";
  /** POST: defragment this member. */
  public static final String DEFRAGMENT = "/defragment";

  /** Query parameter: the member (hex id) that leadership moves to. */
  public static final String PARAM_TO = "to";
  /** Query parameter: the member (hex id) promoted or removed. */
  public static final String PARAM_ID = "id";
  /** Query parameter of a full snapshot: "true" for the final one before hibernation. */
  public static final String PARAM_FINAL = "final";
  /** Query parameter of the initialisation start: how the data directory is validated. */
  public static final String PARAM_MODE = "mode";

  /**
   * How far a follower's raft index may lag behind the leader's and still count as in sync:
   * the operator's limit before it rolls a member, the agent's before it defragments one.
   */
  public static final long MAX_RAFT_LAG = 1_000;

  /**
   * The common name of the operator's client certificate, the only caller the agent accepts
   * on every path but {@link #HEALTHZ}, {@link #READYZ} and {@link #METRICS}.
   */
  public static final String OPERATOR_CLIENT_NAME = "etcd-druid-operator";
  /** Answer of a long operation while the agent runs as many as it allows: retry later. */
  public static final int BUSY = 429;

  private AgentApi() {
  }
}
