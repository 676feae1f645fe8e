package cloud.gardener.druid.agent.pitr;

import cloud.gardener.druid.agent.pitr.UndeletePlan.KeyAction;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Counts and lists what an undelete did (or would do), one log line per key acted on. */
final class UndeleteTally implements KeyAction.Handler<Void> {

  final List<String> written = new ArrayList<>();
  final List<String> skipped = new ArrayList<>();
  final List<String> createdAfter = new ArrayList<>();
  long unchanged;
  private final boolean dryRun;
  private final long revision;
  private final Consumer<String> log;

  UndeleteTally(boolean dryRun, long revision, Consumer<String> log) {
    this.dryRun = dryRun;
    this.revision = revision;
    this.log = log;
  }

  @Override
  public Void write(KeyAction.Write w) {
    String key = PrefixRead.printable(w.key());
    written.add(key);
    log.accept((dryRun ? "would write " : "written ") + key);
    return null;
  }

  @Override
  public Void skip(KeyAction.Skip s) {
    String key = PrefixRead.printable(s.key());
    skipped.add(key + ": " + s.reason());
    log.accept("skipped " + key + ": " + s.reason());
    return null;
  }

  @Override
  public Void unchanged(KeyAction.Unchanged u) {
    unchanged++;
    return null;
  }

  @Override
  public Void leaveAlone(KeyAction.LeaveAlone l) {
    String key = PrefixRead.printable(l.key());
    createdAfter.add(key);
    log.accept("left alone (created after revision " + revision + ") " + key);
    return null;
  }

  @Override
  public Void remove(KeyAction.Remove r) {
    String key = PrefixRead.printable(r.key());
    createdAfter.add(key);
    log.accept((dryRun ? "would remove " : "removed ") + key);
    return null;
  }
}
