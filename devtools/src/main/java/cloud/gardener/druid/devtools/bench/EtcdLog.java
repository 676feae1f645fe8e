package cloud.gardener.druid.devtools.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** etcd's JSON log lines, for the time between two of its messages. */
record EtcdLog(Path file, List<String> lines) {

  private static final Pattern TS = Pattern.compile("\"ts\":\"([^\"]+)\"");
  private static final DateTimeFormatter ZONED = DateTimeFormatter.ofPattern(
      "yyyy-MM-dd'T'HH:mm:ss.SSSZ");

  static EtcdLog read(Path file) throws IOException {
    return new EtcdLog(file, Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  /** Milliseconds from the first line saying {@code from} to the first later one saying {@code to}. */
  long millisBetween(String from, String to) {
    Instant start = null;
    for (String line : lines) {
      if (start == null && line.contains(from)) {
        start = time(line);
      } else if (start != null && line.contains(to)) {
        return Duration.between(start, time(line)).toMillis();
      }
    }
    throw new IllegalStateException("etcd did not log '" + from + "' then '" + to + "' in "
        + file);
  }

  /** Milliseconds from etcd's first line to its "now serving" (opening, WAL, checks). */
  long millisToServe() {
    if (lines.isEmpty()) {
      throw new IllegalStateException("etcd logged nothing in " + file);
    }
    Instant first = time(lines.get(0));
    return lines.stream().filter(l -> l.contains("now serving peer/client/metrics")).findFirst()
        .map(l -> Duration.between(first, time(l)).toMillis())
        .orElseThrow(() -> new IllegalStateException("etcd never served; see " + file));
  }

  /** A line's {@code ts}: 3.6+ write RFC 3339 in UTC, 3.5 with a numeric offset. */
  static Instant time(String line) {
    Matcher m = TS.matcher(line);
    if (!m.find()) {
      throw new IllegalStateException("no time stamp in etcd's line: " + line);
    }
    String ts = m.group(1);
    try {
      return Instant.parse(ts);
    } catch (DateTimeParseException e) {
      return OffsetDateTime.parse(ts, ZONED).toInstant();
    }
  }
}
