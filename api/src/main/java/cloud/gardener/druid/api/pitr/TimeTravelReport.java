package cloud.gardener.druid.api.pitr;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a point-in-time restore ({@code druid agent restore-to}) or an undelete
 * ({@code druid agent undelete}) did, as its last log line and its pod's termination message
 * (at most {@link #MAX_BYTES}: the key lists are cut, their counts are whole).
 *
 * @param outcome how it ended
 * @param revision the source revision restored or read (R)
 * @param message for people: what was done, or why not
 * @param restoredRevision the new Etcd's revision after a restore (above the source's), 0
 *     for an undelete
 * @param written keys written back (or that a dry run would write): count and the first ones
 * @param skipped keys not written, each with why (changed since R, created meanwhile)
 * @param unchanged keys the live cluster holds as they were at R
 * @param createdAfter keys under the prefix created after R: left alone, or removed when asked
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TimeTravelReport(Outcome outcome, long revision, String message,
    long restoredRevision, Keys written, Keys skipped, long unchanged, Keys createdAfter) {

  /** The kubelet keeps at most this much of a termination message. */
  public static final int MAX_BYTES = 4096;
  /** Keys listed per kind in the report (the pod's log lists all). */
  public static final int LISTED_KEYS = 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  public enum Outcome {
    /** Restored, or undeleted (possibly with skipped keys). */
    DONE,
    /** A dry run: nothing was written. */
    DRY_RUN,
    /** Refused or failed; the message says why. */
    FAILED
  }

  /** How many keys, and the first {@link #LISTED_KEYS} of them (with a reason if skipped). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Keys(long count, List<String> first) {

    public static final Keys NONE = new Keys(0, List.of());

    public static Keys of(List<String> keys) {
      return new Keys(keys.size(), List.copyOf(keys.subList(0, Math.min(LISTED_KEYS,
          keys.size()))));
    }
  }

  public static TimeTravelReport failed(long revision, String message) {
    return new TimeTravelReport(Outcome.FAILED, revision, message, 0, Keys.NONE, Keys.NONE, 0,
        Keys.NONE);
  }

  public static TimeTravelReport parse(String json) throws IOException {
    return JSON.readValue(json, TimeTravelReport.class);
  }

  /** The JSON, within {@link #MAX_BYTES}: key lists shortened first, then the message. */
  public String toJson() {
    TimeTravelReport r = this;
    for (int listed = LISTED_KEYS; ; listed = listed / 2) {
      String json = write(r);
      if (json.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES) {
        return json;
      }
      if (listed == 0) {
        return write(new TimeTravelReport(outcome, revision, cut(message), restoredRevision,
            r.written, r.skipped, unchanged, r.createdAfter));
      }
      int n = listed / 2;
      r = new TimeTravelReport(outcome, revision, message, restoredRevision, first(written, n),
          first(skipped, n), unchanged, first(createdAfter, n));
    }
  }

  private static Keys first(Keys keys, int n) {
    return keys == null ? null : new Keys(keys.count(),
        List.copyOf(keys.first().subList(0, Math.min(n, keys.first().size()))));
  }

  private static String cut(String message) {
    return message == null || message.length() <= 1000 ? message
        : message.substring(0, 1000) + "...";
  }

  private static String write(TimeTravelReport r) {
    try {
      return JSON.writeValueAsString(r);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
