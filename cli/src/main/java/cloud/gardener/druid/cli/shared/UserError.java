package cloud.gardener.druid.cli.shared;

/** A failure the user can act on; its message is printed without a stack trace. */
public class UserError extends RuntimeException {

  private final int exitCode;

  public UserError(String message) {
    this(message, 1);
  }

  public UserError(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
