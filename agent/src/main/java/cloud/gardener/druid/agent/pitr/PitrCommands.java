package cloud.gardener.druid.agent.pitr;

import cloud.gardener.druid.api.pitr.TimeTravelReport;
import java.io.PrintWriter;
import cloud.gardener.druid.agent.util.TerminationMessage;

/** What the point-in-time commands share: the point chosen and how the report is given. */
final class PitrCommands {

  static final int EXIT_FAILED = 1;
  static final int EXIT_INVALID_OPTIONS = 64;

  private PitrCommands() {
  }

  /** Exactly one of a revision and a time; the option names are for the message. */
  static PointInTime point(Long revision, String time, String revisionOption,
      String timeOption) {
    if ((revision == null) == (time == null)) {
      throw new IllegalArgumentException("give exactly one of " + revisionOption + " and "
          + timeOption);
    }
    return revision != null ? new PointInTime.AtRevision(revision)
        : PointInTime.parseTime(time);
  }

  /** The message, then the report as JSON on the last line and as the termination message. */
  static int report(PrintWriter out, TimeTravelReport report) {
    out.println(report.outcome() + ": " + report.message());
    out.println(report.toJson());
    out.flush();
    TerminationMessage.write(report.toJson());
    return report.outcome() == TimeTravelReport.Outcome.FAILED ? EXIT_FAILED : 0;
  }

  static String message(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }
}
