package cloud.gardener.druid.agent.init;

import cloud.gardener.druid.agent.util.ProcessRunner;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Checks a data directory before etcd starts on it. Sanity mode: the layout (a database and
 * a WAL), the guard file, and the database revision against the newest backup's. Full mode,
 * after an unclean exit, additionally reads the whole database ({@code etcdutl snapshot
 * status} walks and hashes every page), which fails on a corrupt file.
 */
public final class DataDirValidator {

  public enum Mode {
    SANITY, FULL
  }

  /** The outcome; {@code problem} says what is wrong when the directory is not valid. */
  public record Result(State state, String problem) {
    public enum State {
      VALID, MISSING, INVALID
    }

    static Result valid() {
      return new Result(State.VALID, "");
    }

    static Result missing() {
      return new Result(State.MISSING, "the data directory is empty");
    }

    static Result invalid(String problem) {
      return new Result(State.INVALID, problem);
    }

    public boolean isValid() {
      return state == State.VALID;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path etcdutl;
  private final GuardFile expectedGuard;

  public DataDirValidator(Path etcdutl, GuardFile expectedGuard) {
    this.etcdutl = etcdutl;
    this.expectedGuard = expectedGuard;
  }

  /**
   * @param newestBackupRevision checked only when present (single-member clusters)
   * @throws GuardMismatchException when the directory belongs to another Etcd
   */
  public Result validate(Path dataDir, Mode mode, Optional<Long> newestBackupRevision)
      throws GuardMismatchException, IOException {
    if (!hasMember(dataDir)) {
      return Result.missing();
    }
    checkGuard(dataDir);
    Path db = dataDir.resolve("member/snap/db");
    if (!Files.isRegularFile(db) || Files.size(db) == 0) {
      return Result.invalid("the database " + db + " is missing or empty");
    }
    if (!hasWal(dataDir.resolve("member/wal"))) {
      return Result.invalid("the write-ahead log in " + dataDir.resolve("member/wal")
          + " is missing");
    }
    if (mode == Mode.SANITY && newestBackupRevision.isEmpty()) {
      return Result.valid();
    }
    long revision;
    try {
      revision = databaseRevision(db);
    } catch (IOException e) {
      return Result.invalid("the database " + db + " cannot be read: " + e.getMessage());
    }
    if (newestBackupRevision.isPresent() && revision < newestBackupRevision.get()) {
      return Result.invalid("the database revision " + revision
          + " is behind the newest backup's revision " + newestBackupRevision.get());
    }
    return Result.valid();
  }

  private static boolean hasMember(Path dataDir) {
    return Files.isDirectory(dataDir.resolve("member"));
  }

  private void checkGuard(Path dataDir) throws GuardMismatchException, IOException {
    Optional<GuardFile> guard = GuardFile.read(dataDir);
    if (guard.isPresent() && !guard.get().equals(expectedGuard)) {
      throw new GuardMismatchException("refusing to start: the data directory " + dataDir
          + " belongs to Etcd " + guard.get().describe() + ", not to "
          + expectedGuard.describe() + " (guard file " + GuardFile.FILE_NAME
          + "); attach the right volume or delete the directory to start this member anew");
    }
  }

  private static boolean hasWal(Path walDir) throws IOException {
    if (!Files.isDirectory(walDir)) {
      return false;
    }
    try (Stream<Path> files = Files.list(walDir)) {
      return files.anyMatch(f -> f.getFileName().toString().endsWith(".wal"));
    }
  }

  private long databaseRevision(Path db) throws IOException {
    String out = ProcessRunner.run(List.of(etcdutl.toString(), "snapshot", "status",
        db.toString(), "-w", "json"), Duration.ofMinutes(10));
    String json = out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
        .orElseThrow(() -> new IOException("etcdutl printed no status: " + out));
    JsonNode status = JSON.readTree(json);
    return status.path("revision").asLong();
  }
}
