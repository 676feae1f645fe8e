package cloud.gardener.druid.api.verify;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The hashes the leader's agent recorded when it wrote snapshots, stored next to them as
 * {@value #OBJECT_NAME} (no snapshot name: neither our listing nor upstream's takes it). A
 * restore drill compares what it restored with them. Holds the newest {@link #MAX_RECORDS}.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BackupHashes(int version, List<Record> records) {

  public static final String OBJECT_NAME = "druid-backup-hashes.json";
  public static final int VERSION = 1;
  public static final int MAX_RECORDS = 64;
  private static final ObjectMapper JSON = new ObjectMapper();

  public BackupHashes {
    records = records == null ? List.of() : List.copyOf(records);
  }

  /** How a hash was computed. */
  public enum Method {
    /**
     * etcd's own {@code HashKV} at the revision (keys, values and their revisions, over the
     * history after {@code compactRevision}): comparable on a database restored from a full
     * snapshot, whose revisions are the source's.
     */
    ETCD_HASH_KV,
    /**
     * SHA-256 over every key and value at the revision, in key order (length-prefixed), without
     * revisions or leases: comparable after a delta replay, which gives keys new revisions.
     */
    KV_SHA256
  }

  /**
   * One hash: of {@code snapshot} (its object name) at {@code revision}.
   *
   * @param compactRevision etcd's compaction revision when hashed ({@code HashKV} only)
   * @param recordedAt RFC 3339 time of the record
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Record(String snapshot, long revision, Method method, String hash,
      long compactRevision, String member, String recordedAt) {
  }

  public static BackupHashes empty() {
    return new BackupHashes(VERSION, List.of());
  }

  /** These records and {@code added}, the oldest dropped beyond {@link #MAX_RECORDS}. */
  public BackupHashes with(Record added) {
    List<Record> all = new ArrayList<>(records);
    all.removeIf(r -> r.snapshot().equals(added.snapshot()) && r.method() == added.method());
    all.add(added);
    return new BackupHashes(VERSION, all.subList(Math.max(0, all.size() - MAX_RECORDS),
        all.size()));
  }

  /** The newest record of {@code snapshot} made by {@code method}. */
  public Optional<Record> of(String snapshot, Method method) {
    return records.stream().filter(r -> r.snapshot().equals(snapshot) && r.method() == method)
        .reduce((a, b) -> b);
  }

  public static BackupHashes parse(byte[] json) throws IOException {
    return JSON.readValue(json, BackupHashes.class);
  }

  public byte[] toJson() {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(this);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
