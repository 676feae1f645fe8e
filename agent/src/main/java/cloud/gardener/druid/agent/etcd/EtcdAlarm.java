package cloud.gardener.druid.agent.etcd;

/**
 * An alarm etcd raised: the member it names (etcd's uint64 ID in a long's bits) and its type
 * as etcd names it ("NOSPACE", "CORRUPT"). Read through etcd's gateway: jetcd 0.8.5 knows
 * NOSPACE only and turns CORRUPT into UNRECOGNIZED.
 */
public record EtcdAlarm(long memberId, String type) {

  public static final String CORRUPT = "CORRUPT";
  public static final String NOSPACE = "NOSPACE";
}
