package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.UndeleteConfig;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code undelete}: bring a deleted prefix back into the live cluster (addition). */
@Command(name = "undelete", mixinStandardHelpOptions = true,
    description = "Bring the keys under a prefix back as they were at a revision (or time):"
        + " creates an EtcdOpsTask (undelete) whose Job restores the store's chain up to that"
        + " revision into a temporary etcd and writes each key the cluster no longer holds"
        + " back in a transaction guarded by its absence; a key changed or re-created since is"
        + " reported, never overwritten. No member is restarted. With --dry-run the task only"
        + " lists what it would write and skip (docs/time-travel.md).",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
        "0:done or listed (skipped keys included; or the task created, with --no-wait)",
        "1:error", "2:usage error", "3:Etcd not found", "4:timed out following the task",
        "5:the task failed (e.g. the revision is outside the retained history) or was"
            + " rejected", "6:refused: the Etcd has no backup store"})
final class UndeleteCommand extends OpsTaskCommand {

  /** Which state to bring back: exactly one. */
  static final class Point {
    @Option(names = "--at", paramLabel = "R", required = true, description = "The revision "
        + "whose keys are brought back: before the delete (kubectl druid history --prefix).")
    Long revision;

    @Option(names = "--at-time", paramLabel = "TIME", required = true, description = "Bring "
        + "back the keys as they were after the last event not after this RFC 3339 time.")
    String time;
  }

  @Option(names = "--prefix", paramLabel = "PREFIX", required = true,
      description = "The key prefix to bring back, e.g. /registry/configmaps/team-a/.")
  String prefix;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Point point;

  @Option(names = "--remove-created-after", description = "Also remove keys under the prefix"
      + " created after the revision (each unless modified since it was read).")
  boolean removeCreatedAfter;

  @Override
  String operation() {
    return "undelete";
  }

  @Override
  boolean dryRunIsTheTasks() {
    return true;
  }

  @Override
  EtcdOpsTaskConfig config(Etcd etcd) {
    requireStore(etcd, "there is no history to read");
    UndeleteConfig c = new UndeleteConfig();
    c.setPrefix(prefix);
    c.setRevision(point.revision);
    c.setTime(point.time == null ? null : RestoreCommand.checkedTime(point.time));
    c.setDryRun(dryRun.client() ? Boolean.TRUE : null);
    c.setRemoveCreatedAfter(removeCreatedAfter ? Boolean.TRUE : null);
    EtcdOpsTaskConfig config = new EtcdOpsTaskConfig();
    config.setUndelete(c);
    return config;
  }

  @Override
  List<String> effects(Etcd etcd) {
    String at = point.revision != null ? "revision " + point.revision : "time " + point.time;
    return List.of("undelete: a Job reads the keys under " + prefix + " at " + at
        + " from the backups and " + (dryRun.client() ? "lists which it would write back"
            : "writes back each one the cluster no longer holds, guarded by its absence"),
        "keys changed or re-created since are reported, not overwritten; no member restarts");
  }
}
