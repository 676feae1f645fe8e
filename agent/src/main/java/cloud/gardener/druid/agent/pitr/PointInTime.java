package cloud.gardener.druid.agent.pitr;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Where in an Etcd's retained history to go: a revision, or the last event not after a time. */
public sealed interface PointInTime {

  /** The source's state right after revision {@code revision}. */
  record AtRevision(long revision) implements PointInTime {
    public AtRevision {
      if (revision <= 0) {
        throw new IllegalArgumentException("a revision must be positive, not " + revision);
      }
    }

    @Override
    public String toString() {
      return "revision " + revision;
    }
  }

  /** The source's state after the last event not after {@code time}. */
  record AtTime(Instant time) implements PointInTime {
    @Override
    public String toString() {
      return "time " + time;
    }
  }

  /** Parses an RFC 3339 time ({@code 2026-12-04T23:15:00Z}, an offset allowed). */
  static AtTime parseTime(String text) {
    try {
      return new AtTime(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("'" + text + "' is no RFC 3339 time such as "
          + "2026-12-04T23:15:00Z");
    }
  }
}
