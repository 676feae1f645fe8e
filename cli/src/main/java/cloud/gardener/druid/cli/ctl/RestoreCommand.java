package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.RestoreIntoConfig;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code restore}: a point-in-time restore into a new Etcd (addition), followed to its end. */
@Command(name = "restore", mixinStandardHelpOptions = true,
    description = "Restore the Etcd at a revision (or at the last event not after a time) into"
        + " a new Etcd: creates an EtcdOpsTask (restoreInto) whose Job restores the store's"
        + " full snapshot and deltas up to exactly that revision into the new Etcd's own store"
        + " prefix, then creates the new Etcd from this one's spec; follows it until the new"
        + " Etcd is ready. The source is only read (docs/time-travel.md).",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:the new Etcd is ready (or the task created, with --no-wait; shown, with --dry-run)",
        "1:error", "2:usage error", "3:Etcd not found", "4:timed out following the task",
        "5:the task failed (e.g. the revision is outside the retained history) or was"
            + " rejected", "6:refused: the Etcd has no backup store"})
final class RestoreCommand extends OpsTaskCommand {

  /** Where to go: exactly one. */
  static final class Point {
    @Option(names = "--to-revision", paramLabel = "R", required = true,
        description = "The revision to restore (kubectl druid history lists the range).")
    Long revision;

    @Option(names = "--to-time", paramLabel = "TIME", required = true,
        description = "Restore the last event not after this RFC 3339 time, e.g."
            + " 2026-12-04T23:15:00Z.")
    String time;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Point point;

  @Option(names = "--into", paramLabel = "NEW", required = true,
      description = "Name of the new Etcd (it must not exist).")
  String into;

  @Option(names = "--store-prefix", paramLabel = "PREFIX", description = "The new Etcd's "
      + "store prefix. Default: this Etcd's with its last segment replaced by NEW.")
  String storePrefix;

  @Override
  String operation() {
    return "restore";
  }

  @Override
  EtcdOpsTaskConfig config(Etcd etcd) {
    requireStore(etcd, "there is no history to restore");
    RestoreIntoConfig c = new RestoreIntoConfig();
    c.setEtcdName(into);
    c.setRevision(point.revision);
    c.setTime(point.time == null ? null : checkedTime(point.time));
    c.setStorePrefix(storePrefix);
    EtcdOpsTaskConfig config = new EtcdOpsTaskConfig();
    config.setRestoreInto(c);
    return config;
  }

  static String checkedTime(String time) {
    try {
      OffsetDateTime.parse(time);
      return time;
    } catch (DateTimeParseException e) {
      throw new UserError("'" + time + "' is no RFC 3339 time such as 2026-12-04T23:15:00Z",
          ExitCodes.USAGE);
    }
  }

  @Override
  List<String> effects(Etcd etcd) {
    String at = point.revision != null ? "revision " + point.revision : "time " + point.time;
    return List.of("restoreInto: a Job restores " + at + " of this Etcd's backups into the "
        + "store prefix of the new Etcd " + into + " (this Etcd is only read)",
        "then creates Etcd " + into + " from this Etcd's spec and waits until it is ready");
  }
}
