package cloud.gardener.druid.cli.shared;

/**
 * The exit codes of {@code druid ctl} / {@code kubectl druid}, one meaning each; listed in the
 * help of {@code ctl} and of each command, and in docs/README.md.
 */
public final class ExitCodes {

  /** Done: the command did what it says, or the rollout or task completed. */
  public static final int OK = 0;
  /** An error: the API server refused or could not be reached, or anything unexpected. */
  public static final int ERROR = 1;
  /** A usage error: an unknown option, a bad value (picocli's code). */
  public static final int USAGE = 2;
  /** What the command names does not exist (Etcd, member, task, backup store). */
  public static final int NOT_FOUND = 3;
  /** The wait ended before the rollout or the task completed (--timeout). */
  public static final int TIMEOUT = 4;
  /** The task the command follows failed or was rejected. */
  public static final int TASK_FAILED = 5;
  /** Refused: the command would not do what it says (nothing to confirm, already in that state). */
  public static final int REFUSED = 6;

  private ExitCodes() {
  }
}
