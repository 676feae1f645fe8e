package cloud.gardener.druid.agent.pitr;

/** A point-in-time restore or undelete that cannot be done; the message says why. */
public final class PitrException extends Exception {

  public PitrException(String message) {
    super(message);
  }

  public PitrException(String message, Throwable cause) {
    super(message, cause);
  }
}
