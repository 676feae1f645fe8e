package cloud.gardener.druid.operator.model;

/** Where things are mounted in a member container; shared by the pod and ConfigMap builders. */
public final class MemberLayout {

  public static final String CONTAINER = "etcd";
  public static final String DATA_DIR = "/var/etcd/data";
  public static final String CONFIG_DIR = "/var/etcd/config";
  public static final String CONFIG_FILE = CONFIG_DIR + "/etcd.conf.yaml";
  public static final String CONFIG_KEY = "etcd.conf.yaml";
  public static final String CLIENT_TLS_CA = "/var/etcd/ssl/client/ca";
  public static final String CLIENT_TLS_SERVER = "/var/etcd/ssl/client/server";
  public static final String CLIENT_TLS_CLIENT = "/var/etcd/ssl/client/client";
  public static final String PEER_TLS_CA = "/var/etcd/ssl/peer/ca";
  public static final String PEER_TLS_SERVER = "/var/etcd/ssl/peer/server";
  public static final String AGENT_TLS_CA = "/var/etcd/ssl/agent/ca";
  public static final String AGENT_TLS_SERVER = "/var/etcd/ssl/agent/server";
  public static final String STORE_SECRET_DIR = "/var/etcd-backup/secret";
  public static final String LOCAL_STORE_DIR = "/var/etcd-backup/local";
  public static final String DEFAULT_CA_KEY = "ca.crt";

  private MemberLayout() {
  }
}
