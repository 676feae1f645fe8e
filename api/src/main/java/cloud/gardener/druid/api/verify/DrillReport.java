package cloud.gardener.druid.api.verify;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * What a restore drill ({@code druid agent verify-backups}) found, as it prints it on its last
 * line and writes it into the Etcd's verification lease for the operator.
 *
 * @param outcome what the drill concluded
 * @param fullSnapshot the full snapshot restored (object name), null when there was none
 * @param deltas how many deltas after it the drill read
 * @param verifiedRevision the newest revision whose content was proven equal, 0 when none
 * @param object the object that failed (snapshot or marker name), null unless failed
 * @param reason why it failed, null unless failed
 * @param message for people: what was proven, or what failed and why
 * @param finishedAt RFC 3339 time the drill ended
 * @param durationMillis the whole drill
 * @param restoreMillis the restore of the whole chain (full snapshot and every delta proven):
 *     the measured time to recover
 * @param verifiedSnapshotTime RFC 3339 time the newest proven snapshot was written, null when
 *     none was proven: writes after it are not proven restorable
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record DrillReport(Outcome outcome, String fullSnapshot, int deltas,
    long verifiedRevision, String object, Reason reason, String message, String finishedAt,
    long durationMillis, long restoreMillis, String verifiedSnapshotTime) {

  /** The annotation of the Etcd's verification lease that holds the newest report. */
  public static final String LEASE_ANNOTATION = "druid.gardener.cloud/backup-verification";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The lease the drill writes its report into ({@link #LEASE_ANNOTATION}, holder: the
   * outcome, renew time: when it ended), created by the operator with the Etcd's other leases.
   */
  public static String leaseName(String etcd) {
    return etcd + "-backup-verification";
  }

  public enum Outcome {
    /** Restored, and the content equals the recorded hashes. */
    VERIFIED,
    /** Restored, but no hash was recorded for what was restored: content not proven. */
    UNPROVEN,
    /** A piece is missing, corrupt or restores other content. */
    FAILED,
    /** The store holds no full snapshot. */
    NOTHING_TO_VERIFY
  }

  public enum Reason {
    /** A snapshot failed its checksum. */
    CHECKSUM,
    /** A snapshot could not be decompressed or parsed. */
    DECODE,
    /** Restored content differs from the hash recorded at snapshot time. */
    HASH_MISMATCH,
    /** No snapshot holds some revisions between two deltas, or before the first. */
    MISSING_DELTA,
    /** The store's identity marker names another Etcd. */
    FOREIGN_STORE,
    /** The restore failed for another reason (the store, etcd). */
    RESTORE_FAILED
  }

  public static DrillReport parse(String json) throws IOException {
    return JSON.readValue(json, DrillReport.class);
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
