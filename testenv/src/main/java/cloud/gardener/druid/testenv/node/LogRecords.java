package cloud.gardener.druid.testenv.node;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** Reads a CRI log file back into the lines a kubelet serves. */
final class LogRecords {

  /** One record of a CRI log file: its time, and its text with the newline if complete. */
  record Entry(Instant time, String text) {

    /** {@code line} (without its newline) as a record, or null if it is not one. */
    static Entry parse(String line) {
      int first = line.indexOf(' ');
      int second = first < 0 ? -1 : line.indexOf(' ', first + 1);
      if (second < 0 || second + 2 > line.length()) {
        return null;
      }
      boolean complete = line.charAt(second + 1) == 'F';
      String text = line.length() > second + 3 ? line.substring(second + 3) : "";
      try {
        return new Entry(Instant.parse(line.substring(0, first)),
            complete ? text + "\n" : text);
      } catch (DateTimeParseException e) {
        return null;
      }
    }

    byte[] render(boolean timestamps) {
      return (timestamps ? time + " " + text : text).getBytes(StandardCharsets.UTF_8);
    }
  }

  private LogRecords() {
  }

  /** The complete lines of {@code bytes} (up to its last newline) as entries, filtered. */
  static List<Entry> parse(byte[] bytes, int length, LogQuery query) {
    int tail = query.tailLines().orElse(-1);
    Deque<Entry> kept = new ArrayDeque<>();
    int start = 0;
    for (int i = 0; i < length; i++) {
      if (bytes[i] != '\n') {
        continue;
      }
      Entry e = Entry.parse(new String(bytes, start, i - start, StandardCharsets.UTF_8));
      start = i + 1;
      if (e == null || query.since().map(s -> e.time().isBefore(s)).orElse(false)) {
        continue;
      }
      kept.addLast(e);
      if (tail >= 0 && kept.size() > tail) {
        kept.removeFirst();
      }
    }
    return new ArrayList<>(kept);
  }

  /** The length of {@code bytes}' complete lines: up to and with its last newline. */
  static int completeLength(byte[] bytes, int length) {
    for (int i = length - 1; i >= 0; i--) {
      if (bytes[i] == '\n') {
        return i + 1;
      }
    }
    return 0;
  }

  /** Writes {@code entries}, stopping at {@code limit} bytes; returns the bytes left. */
  static long write(List<Entry> entries, boolean timestamps, long limit, OutputStream out)
      throws IOException {
    long left = limit;
    for (Entry e : entries) {
      byte[] bytes = e.render(timestamps);
      int n = (int) Math.min(bytes.length, left);
      out.write(bytes, 0, n);
      left -= n;
      if (left <= 0) {
        break;
      }
    }
    out.flush();
    return left;
  }
}
