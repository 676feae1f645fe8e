package cloud.gardener.druid.agent.store;

import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One backup object in the etcd-backup-restore v2 layout:
 * {@code Full-%08d-%08d-<unix>[.gz][.final]} or {@code Incr-%08d-%08d-<unix>[.gz]}, holding
 * the revisions {@code startRevision..endRevision}.
 */
public record Snapshot(
    Kind kind, long startRevision, long endRevision, Instant createdOn,
    Compression compression, boolean isFinal) {

  /** Full snapshots first at equal revisions, so a full precedes the deltas after it. */
  public static final Comparator<Snapshot> ORDER = Comparator
      .comparingLong(Snapshot::endRevision)
      .thenComparing(Snapshot::kind)
      .thenComparingLong(Snapshot::startRevision)
      .thenComparing(Snapshot::createdOn);

  private static final Pattern NAME = Pattern.compile(
      "(Full|Incr)-(\\d{8,})-(\\d{8,})-(\\d+)(\\.gz|\\.zlib|\\.Z)?(\\.final)?");

  /** Names carry whole seconds, so a snapshot equals the one parsed back from its name. */
  public Snapshot {
    createdOn = createdOn.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
  }

  public enum Kind {
    FULL("Full"), INCR("Incr");

    private final String prefix;

    Kind(String prefix) {
      this.prefix = prefix;
    }
  }

  public enum Compression {
    NONE(""), GZIP(".gz"), ZLIB(".zlib"), LZW(".Z");

    private final String suffix;

    Compression(String suffix) {
      this.suffix = suffix;
    }

    static Compression ofSuffix(String suffix) {
      for (Compression c : values()) {
        if (c.suffix.equals(suffix == null ? "" : suffix)) {
          return c;
        }
      }
      throw new IllegalArgumentException("unknown compression suffix " + suffix);
    }
  }

  public static Snapshot full(long startRevision, long endRevision, Instant createdOn,
      Compression compression, boolean isFinal) {
    return new Snapshot(Kind.FULL, startRevision, endRevision, createdOn, compression, isFinal);
  }

  public static Snapshot delta(long startRevision, long endRevision, Instant createdOn,
      Compression compression) {
    return new Snapshot(Kind.INCR, startRevision, endRevision, createdOn, compression, false);
  }

  /** The object's name below {@code <prefix>/v2/}. */
  public String fileName() {
    return String.format("%s-%08d-%08d-%d%s%s", kind.prefix, startRevision, endRevision,
        createdOn.getEpochSecond(), compression.suffix, isFinal ? ".final" : "");
  }

  /** Parses an object name; anything else in the directory (temp files, v1 data) is ignored. */
  public static Optional<Snapshot> parse(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    Kind kind = m.group(1).equals("Full") ? Kind.FULL : Kind.INCR;
    return Optional.of(new Snapshot(kind, Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
        Instant.ofEpochSecond(Long.parseLong(m.group(4))), Compression.ofSuffix(m.group(5)),
        m.group(6) != null));
  }

  public boolean isFull() {
    return kind == Kind.FULL;
  }

  @Override
  public String toString() {
    return fileName();
  }
}
