package cloud.gardener.druid.cli.shared;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Prints a failed command's error as one line ("druid: ...") instead of a stack trace;
 * the causes' messages follow it (a wrapper such as "Error starting operator" alone says
 * nothing); set DRUID_DEBUG=1 for the trace.
 */
public final class ErrorHandler implements IExecutionExceptionHandler {

  static final int EXIT_FAILED = 1;

  @Override
  public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
    if (System.getenv("DRUID_DEBUG") != null) {
      e.printStackTrace(cmd.getErr());
    }
    cmd.getOut().flush(); // what the command printed before it failed comes first
    cmd.getErr().println("druid " + cmd.getCommandName() + ": " + describe(e));
    cmd.getErr().flush();
    return e instanceof UserError ue ? ue.exitCode() : EXIT_FAILED;
  }

  /** The error's message and each different message of its causes, joined by ": ". */
  static String describe(Throwable e) {
    StringBuilder text = new StringBuilder(message(e));
    for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause();
        cause = cause.getCause()) {
      String next = message(cause);
      if (!text.toString().contains(next)) {
        text.append(": ").append(next);
      }
    }
    return text.toString();
  }

  private static String message(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
