package cloud.gardener.druid.testenv.node;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Serves one {@code /containerLogs} request from a {@link ContainerLog}: the lines the query
 * selects and, with {@code follow}, each new line until the container's run ends (across
 * rotations of its file) or the client goes away.
 */
final class LogStream {

  /** How often a follower looks for new lines, as {@code tail -f} does. */
  private static final long POLL_MILLIS = 100;

  private static final LogQuery EVERY_LINE = new LogQuery(OptionalInt.empty(),
      Optional.empty(), false, false, false, OptionalLong.empty());

  private final ContainerLog log;
  private final LogQuery query;
  private final OutputStream out;
  private long left;

  LogStream(ContainerLog log, LogQuery query, OutputStream out) {
    this.log = log;
    this.query = query;
    this.out = out;
    this.left = query.limitBytes().orElse(Long.MAX_VALUE);
  }

  /** Writes the selected lines of {@code file} and, when following, what comes after. */
  void serve(Path file) throws IOException, InterruptedException {
    try (Reader reader = Reader.open(file)) {
      byte[] all = reader.readAll();
      int complete = LogRecords.completeLength(all, all.length);
      left = LogRecords.write(LogRecords.parse(all, complete, query), query.timestamps(), left,
          out);
      reader.rewindTo(complete);
      if (query.follow() && left > 0) {
        follow(file, reader);
      }
    }
  }

  private void follow(Path file, Reader first) throws IOException, InterruptedException {
    Reader reader = first;
    try {
      while (left > 0) {
        if (copyNewLines(reader)) {
          continue;
        }
        // read before the file's identity, so that a rotation just before the end is seen
        boolean ended = !log.isWriting() || !log.current().map(file::equals).orElse(false);
        Object now = Reader.fileKey(file);
        if (now != null && !Objects.equals(now, reader.key())) {
          copyNewLines(reader); // rotated: the old file is complete, the new one is next
          reader = reader == first ? Reader.open(file) : swap(reader, file);
        } else if (ended) {
          copyNewLines(reader);
          return;
        } else {
          Thread.sleep(POLL_MILLIS);
        }
      }
    } finally {
      if (reader != first) {
        reader.close();
      }
    }
  }

  private static Reader swap(Reader old, Path file) throws IOException {
    old.close();
    return Reader.open(file);
  }

  /** Copies the complete lines written since the last call; false if there were none. */
  private boolean copyNewLines(Reader reader) throws IOException {
    byte[] fresh = reader.readAll();
    int complete = LogRecords.completeLength(fresh, fresh.length);
    reader.rewindTo(reader.position() - fresh.length + complete);
    if (complete == 0) {
      return false;
    }
    List<LogRecords.Entry> entries = LogRecords.parse(fresh, complete,
        EVERY_LINE);
    left = LogRecords.write(entries, query.timestamps(), left, out);
    return true;
  }

  /** An open file (it keeps reading a file that was renamed), its identity and position. */
  private record Reader(FileChannel channel, Object key) implements AutoCloseable {

    static Reader open(Path file) throws IOException {
      try {
        FileChannel channel = FileChannel.open(file);
        return new Reader(channel, fileKey(file));
      } catch (NoSuchFileException e) {
        return new Reader(null, null);
      }
    }

    static Object fileKey(Path file) throws IOException {
      try {
        return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
      } catch (NoSuchFileException e) {
        return null;
      }
    }

    byte[] readAll() throws IOException {
      if (channel == null) {
        return new byte[0];
      }
      long size = channel.size() - channel.position();
      ByteBuffer buffer = ByteBuffer.allocate((int) Math.max(0, size));
      while (buffer.hasRemaining() && channel.read(buffer) > 0) {
        // reads up to the size seen above
      }
      return Arrays.copyOf(buffer.array(), buffer.position());
    }

    long position() throws IOException {
      return channel == null ? 0 : channel.position();
    }

    void rewindTo(long position) throws IOException {
      if (channel != null) {
        channel.position(position);
      }
    }

    @Override
    public void close() throws IOException {
      if (channel != null) {
        channel.close();
      }
    }
  }
}
