package cloud.gardener.druid.cli;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Prints a failed command's error as one line ("druid: ...") instead of a stack trace;
 * set DRUID_DEBUG=1 for the trace.
 */
final class ErrorHandler implements IExecutionExceptionHandler {

  static final int EXIT_FAILED = 1;

  @Override
  public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
    if (System.getenv("DRUID_DEBUG") != null) {
      e.printStackTrace(cmd.getErr());
    }
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    cmd.getErr().println("druid " + cmd.getCommandName() + ": " + message);
    return e instanceof UserError ue ? ue.exitCode() : EXIT_FAILED;
  }
}
