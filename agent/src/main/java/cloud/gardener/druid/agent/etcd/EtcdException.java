package cloud.gardener.druid.agent.etcd;

/** etcd refused or did not answer an operation; the message says which and why. */
public final class EtcdException extends Exception {

  public EtcdException(String message, Throwable cause) {
    super(message, cause);
  }
}
