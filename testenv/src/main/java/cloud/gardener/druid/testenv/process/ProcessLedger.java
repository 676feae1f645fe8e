package cloud.gardener.druid.testenv.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every process a run started and has not yet stopped. With a file, the list is also kept on
 * disk ({@code pid<TAB>startEpochMillis<TAB>name} per line) so that another JVM
 * ({@code druid local down}) can stop exactly these processes and nothing else: a pid is only
 * trusted while its start time still matches.
 */
public final class ProcessLedger {

  /** One started process group. */
  public record Entry(long pid, long startMillis, String name) {

    /** Whether the process with this pid is still the one that was recorded. */
    public boolean isSameLiveProcess() {
      return ProcessHandle.of(pid)
          .flatMap(h -> h.info().startInstant())
          .map(start -> Math.abs(start.toEpochMilli() - startMillis) < 2_000)
          .orElse(false);
    }
  }

  private final Optional<Path> file;
  private final Map<Long, Entry> entries = new LinkedHashMap<>();

  private ProcessLedger(Optional<Path> file) {
    this.file = file;
  }

  public static ProcessLedger inMemory() {
    return new ProcessLedger(Optional.empty());
  }

  public static ProcessLedger persistedIn(Path file) {
    return new ProcessLedger(Optional.of(file));
  }

  synchronized void record(ManagedProcess process) {
    long start = process.handle().info().startInstant().orElse(Instant.now()).toEpochMilli();
    entries.put(process.pid(), new Entry(process.pid(), start, process.name()));
    persist();
  }

  synchronized void forget(ManagedProcess process) {
    entries.remove(process.pid());
    persist();
  }

  public synchronized List<Entry> entries() {
    return List.copyOf(entries.values());
  }

  /** Reads a ledger file written by another JVM; missing file = no entries. */
  public static List<Entry> read(Path file) {
    if (!Files.exists(file)) {
      return List.of();
    }
    try {
      List<Entry> result = new ArrayList<>();
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String[] parts = line.split("\t", 3);
        if (parts.length == 3) {
          result.add(new Entry(Long.parseLong(parts[0]), Long.parseLong(parts[1]), parts[2]));
        }
      }
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void persist() {
    if (file.isEmpty()) {
      return;
    }
    StringBuilder text = new StringBuilder();
    entries.values().forEach(e ->
        text.append(e.pid()).append('\t').append(e.startMillis()).append('\t')
            .append(e.name()).append('\n'));
    try {
      Path tmp = file.get().resolveSibling(file.get().getFileName() + ".tmp");
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file.get(), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
