package cloud.gardener.druid.api.agent;

/**
 * One member's view of itself, as the agent's {@code /member/status} reports it. Ids are
 * etcd's hex form ("8e9e05c52164694d"). {@code etcdVersion} is the member's etcd ("3.6.16"),
 * {@code clusterVersion} the cluster's (etcd's /version "etcdcluster", "3.6.0"; null when
 * etcd did not say), {@code downgradeTarget} the minor etcd's downgrade is enabled to (null
 * when none is), {@code storageVersion} the schema of its database (etcd 3.6+, "3.7.0"; null
 * before 3.6): a downgrade must have migrated it before the older etcd can open the database.
 */
public record MemberStatus(
    String id,
    String name,
    Role role,
    String clusterId,
    long revision,
    long raftIndex,
    long raftTerm,
    String leaderId,
    boolean learner,
    long dbSizeBytes,
    String etcdVersion,
    String clusterVersion,
    String downgradeTarget,
    String storageVersion) {

  public enum Role {
    Leader, Member, Learner
  }

  public static String hex(long id) {
    return Long.toHexString(id);
  }

  public static long parseHex(String id) {
    return Long.parseUnsignedLong(id, 16);
  }
}
