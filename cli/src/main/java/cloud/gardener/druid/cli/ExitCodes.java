package cloud.gardener.druid.cli;

/**
 * The exit codes of {@code druid ctl} / {@code kubectl druid}, one meaning each; listed in the
 * help of {@code ctl} and of each command, and in docs/README.md.
 */
final class ExitCodes {

  /** Done: the command did what it says, or the rollout or task completed. */
  static final int OK = 0;
  /** An error: the API server refused or could not be reached, or anything unexpected. */
  static final int ERROR = 1;
  /** A usage error: an unknown option, a bad value (picocli's code). */
  static final int USAGE = 2;
  /** What the command names does not exist (Etcd, member, task, backup store). */
  static final int NOT_FOUND = 3;
  /** The wait ended before the rollout or the task completed (--timeout). */
  static final int TIMEOUT = 4;
  /** The task the command follows failed or was rejected. */
  static final int TASK_FAILED = 5;
  /** Refused: the command would not do what it says (nothing to confirm, already in that state). */
  static final int REFUSED = 6;

  private ExitCodes() {
  }
}
