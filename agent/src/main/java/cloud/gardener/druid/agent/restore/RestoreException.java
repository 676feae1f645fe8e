package cloud.gardener.druid.agent.restore;

/** A restore stopped; the data directory was left as it was. The message says why. */
public final class RestoreException extends Exception {

  public RestoreException(String message) {
    super(message);
  }

  public RestoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
