package cloud.gardener.druid.agent.init;

/** The data directory belongs to another Etcd; the agent refuses to start etcd on it. */
public final class GuardMismatchException extends Exception {

  public GuardMismatchException(String message) {
    super(message);
  }
}
