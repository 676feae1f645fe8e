package cloud.gardener.druid.operator.model;

/** Where things are mounted in a member container; shared by the pod and ConfigMap builders. */
public final class MemberLayout {

  public static final String CONTAINER = "etcd";
  public static final String DATA_DIR = "/var/etcd/data";
  /** etcd's own directory within the volume (upstream's layout). */
  public static final String ETCD_DATA_DIR = DATA_DIR + "/new.etcd";
  public static final String CONFIG_DIR = "/var/etcd/config";
  public static final String CONFIG_FILE = CONFIG_DIR + "/etcd.conf.yaml";
  public static final String CONFIG_KEY = "etcd.conf.yaml";
  /** Each TLS directory holds ca.crt, tls.crt and tls.key, projected from the two secrets. */
  public static final String CLIENT_TLS_DIR = "/var/etcd/ssl/client";
  public static final String PEER_TLS_DIR = "/var/etcd/ssl/peer";
  public static final String AGENT_TLS_DIR = "/var/etcd/ssl/agent";
  /** The files username and password of spec.etcd.authSecretRef's Secret, read-only. */
  public static final String ETCD_AUTH_DIR = "/var/etcd/auth";
  public static final String STORE_SECRET_DIR = "/var/etcd-backup/secret";
  public static final String LOCAL_STORE_DIR = "/var/etcd-backup/local";
  public static final String DEFAULT_CA_KEY = "ca.crt";

  private MemberLayout() {
  }
}
