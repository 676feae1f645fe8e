package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One member's space, as its agent measures it (part of {@link MemberReport}): etcd's database
 * and the part of it in use, the quota etcd runs with, the volume holding the data directory,
 * and how fast these grow, each rate a least-squares slope over the agent's recent samples.
 *
 * @param dbSizeBytes the database file (etcd's dbSize)
 * @param dbSizeInUseBytes the pages of it in use (etcd's dbSizeInUse); the rest a defragmentation
 *     gives back
 * @param quotaBytes {@code --quota-backend-bytes}
 * @param volumeCapacityBytes the file system's size
 * @param volumeFreeBytes what the file system has left for this member
 * @param dataDirBytes the data directory (database, WAL, raft snapshots)
 * @param writesPerSecond revisions per second (each write transaction is one)
 * @param dbGrowthBytesPerSecond how fast the database file grows
 * @param inUseGrowthBytesPerSecond how fast the data in use grows
 * @param windowSeconds how long the samples the rates come from span (0: no rate yet)
 * @param alarms etcd's alarms raised on this member ("NOSPACE", "CORRUPT")
 * @param revision the revision when sampled
 * @param unnamedAlarms etcd's alarms that name no member: etcd 3.5's periodic corruption check
 *     raises CORRUPT with member 0, as it cannot tell which side differs (every agent reports
 *     those; omitted when none, as agents before it wrote)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MemberSpace(
    long dbSizeBytes,
    long dbSizeInUseBytes,
    long quotaBytes,
    long volumeCapacityBytes,
    long volumeFreeBytes,
    long dataDirBytes,
    double writesPerSecond,
    double dbGrowthBytesPerSecond,
    double inUseGrowthBytesPerSecond,
    long windowSeconds,
    List<String> alarms,
    long revision,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> unnamedAlarms) {

  public static final String NOSPACE = "NOSPACE";

  @JsonCreator
  public MemberSpace {
    alarms = alarms == null ? List.of() : List.copyOf(alarms);
    unnamedAlarms = unnamedAlarms == null ? List.of() : List.copyOf(unnamedAlarms);
  }

  /** Without alarms that name no member. */
  public MemberSpace(long dbSizeBytes, long dbSizeInUseBytes, long quotaBytes,
      long volumeCapacityBytes, long volumeFreeBytes, long dataDirBytes, double writesPerSecond,
      double dbGrowthBytesPerSecond, double inUseGrowthBytesPerSecond, long windowSeconds,
      List<String> alarms, long revision) {
    this(dbSizeBytes, dbSizeInUseBytes, quotaBytes, volumeCapacityBytes, volumeFreeBytes,
        dataDirBytes, writesPerSecond, dbGrowthBytesPerSecond, inUseGrowthBytesPerSecond,
        windowSeconds, alarms, revision, List.of());
  }

  public boolean noSpace() {
    return alarms.contains(NOSPACE);
  }
}
