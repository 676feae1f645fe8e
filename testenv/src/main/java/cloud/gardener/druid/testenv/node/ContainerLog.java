package cloud.gardener.druid.testenv.node;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One container's log as a kubelet and its container runtime keep it: a file per run,
 * {@code <dir>/<restartCount>.log}, in the CRI format ({@code <RFC 3339 time> stdout F|P
 * <text>}), rotated at {@code maxBytes} to {@code <restartCount>.log.<time>} with at most
 * {@code maxFiles} files per run; only the current and the previous run are kept. Each line also
 * goes, as printed, to the node's combined file of the container (what people tail).
 */
final class ContainerLog {

  private static final Logger LOG = LoggerFactory.getLogger(ContainerLog.class);
  /** The CRI runtimes' longest line record; longer lines are split into partial records. */
  static final int MAX_RECORD = 16 * 1024;
  private static final DateTimeFormatter ROTATED =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss.SSS").withZone(ZoneOffset.UTC);

  private final String uid;
  private final Path dir;
  private final Path combined;
  private final long maxBytes;
  private final int maxFiles;
  private volatile Path current;
  private volatile Path previous;
  private volatile boolean writing;
  private volatile Thread pump;

  ContainerLog(String uid, Path dir, Path combined, long maxBytes, int maxFiles) {
    this.uid = uid;
    this.dir = dir;
    this.combined = combined;
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
  }

  String uid() {
    return uid;
  }

  Path dir() {
    return dir;
  }

  /** The current run's file, empty before the first run. */
  Optional<Path> current() {
    return Optional.ofNullable(current);
  }

  /** The previous run's file (its last after rotations), if the container ran before. */
  Optional<Path> previous() {
    return Optional.ofNullable(previous);
  }

  /** True while the current run's output is still open (the container runs). */
  boolean isWriting() {
    return writing;
  }

  /**
   * Prepares run {@code restartCount}: returns the FIFO its process must write stdout and stderr
   * to (as a runtime's shim gives a container a pipe), read on a thread of its own. Not the
   * JDK's process pipe: that closes when the main process exits, losing what is still in
   * flight and what its children write after it.
   */
  Path startRun(int restartCount, String threadName) {
    try {
      Files.createDirectories(dir);
      Files.createDirectories(combined.getParent());
      Path fifo = dir.resolve(restartCount + ".fifo");
      Files.deleteIfExists(fifo);
      mkfifo(fifo);
      Path file = dir.resolve(restartCount + ".log");
      previous = current;
      current = file;
      removeRunsBefore(restartCount - 1);
      writing = true;
      Thread thread = new Thread(() -> pump(fifo, file), threadName);
      thread.setDaemon(true);
      pump = thread;
      thread.start();
      return fifo;
    } catch (IOException e) {
      writing = false;
      throw new UncheckedIOException(e);
    }
  }

  /** The run's process did not start: ends the reader waiting on its FIFO. */
  void abandonRun(Path fifo) {
    if (Files.exists(fifo)) {
      try (OutputStream ignored = Files.newOutputStream(fifo, StandardOpenOption.WRITE)) {
        // opening and closing the writing end is the end of the stream
      } catch (IOException e) {
        LOG.debug("cannot end the log reader of {}: {}", fifo, e.toString());
      }
    }
  }

  private static void mkfifo(Path fifo) throws IOException {
    Process p = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString())
        .redirectErrorStream(true).start();
    try {
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IOException("mkfifo " + fifo + " failed: " + output.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted creating " + fifo, e);
    }
  }

  /**
   * Waits up to {@code timeout} until the run's output is written (its pipe closed when the
   * process group is gone), so that a terminated container's last lines are in its log.
   */
  void awaitWritten(Duration timeout) {
    Thread thread = pump;
    if (thread == null) {
      return;
    }
    try {
      thread.join(timeout.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void pump(Path fifo, Path file) {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(fifo))) {
      Files.deleteIfExists(fifo); // both ends are open: the name is not needed any more
      try (Writer writer = new Writer(file)) {
        copy(in, writer);
      } catch (IOException | UncheckedIOException e) {
        LOG.warn("log of {} lost from here on: {}", dir, e.toString());
        in.transferTo(OutputStream.nullOutputStream()); // never block the container's writes
      }
    } catch (IOException e) {
      LOG.warn("log of {} ended: {}", dir, e.toString());
    } finally {
      if (pump == Thread.currentThread()) { // not a previous run's reader ending late
        writing = false;
      }
    }
  }

  private static void copy(InputStream in, Writer writer) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        writer.record(line, true);
      } else {
        line.write(b);
        if (line.size() >= MAX_RECORD) {
          writer.record(line, false);
        }
      }
    }
    if (line.size() > 0) {
      writer.record(line, false);
    }
  }

  /** Appends CRI records to one run's file, rotating it when full, and text to the combined. */
  private final class Writer implements AutoCloseable {
    private final Path file;
    private final OutputStream all;
    private OutputStream out;

    Writer(Path file) throws IOException {
      this.file = file;
      this.all = append(combined);
      this.out = append(file);
    }

    /** One record; {@code complete} when the line ended (with a newline) here. */
    void record(ByteArrayOutputStream text, boolean complete) throws IOException {
      ByteArrayOutputStream record = new ByteArrayOutputStream(text.size() + 48);
      record.write((Instant.now() + " stdout " + (complete ? "F " : "P "))
          .getBytes(StandardCharsets.UTF_8));
      text.writeTo(record);
      record.write('\n');
      out.write(record.toByteArray());
      text.writeTo(all);
      if (complete) {
        all.write('\n');
      }
      text.reset();
      if (Files.size(file) >= maxBytes) {
        rotate();
      }
    }

    private void rotate() throws IOException {
      out.close();
      String name = file.getFileName() + "." + ROTATED.format(Instant.now());
      Path rotated = file.resolveSibling(name);
      for (int n = 1; Files.exists(rotated); n++) {
        rotated = file.resolveSibling(name + "-" + n);
      }
      Files.move(file, rotated);
      out = append(file);
      List<Path> old = rotatedOf(file);
      for (int i = 0; i < old.size() - (maxFiles - 1); i++) {
        Files.deleteIfExists(old.get(i));
      }
    }

    private static OutputStream append(Path path) throws IOException {
      return Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Override
    public void close() throws IOException {
      try (all) {
        out.close();
      }
    }
  }

  /** The rotated files of {@code file}, oldest first. */
  static List<Path> rotatedOf(Path file) throws IOException {
    String prefix = file.getFileName() + ".";
    try (Stream<Path> files = Files.list(file.getParent())) {
      return files.filter(p -> p.getFileName().toString().startsWith(prefix))
          .sorted(Comparator.comparing(Path::toString)).toList();
    }
  }

  private void removeRunsBefore(int restartCount) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.toList()) {
        String name = p.getFileName().toString();
        int run = Integer.parseInt(name.substring(0, name.indexOf('.')));
        if (run < restartCount) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
