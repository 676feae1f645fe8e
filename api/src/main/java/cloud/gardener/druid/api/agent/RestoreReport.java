package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * How far a member's restore from the backup store is, in {@link MemberReport}: {@code phase}
 * one of {@code DOWNLOAD}, {@code ETCDUTL}, {@code DELTAS}, {@link #DONE}; {@code done} and
 * {@code total} are bytes while downloading, deltas while replaying ({@code total} 0 when
 * unknown); {@code description} says the same in words.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RestoreReport(String phase, long done, long total, String description) {

  public static final String DONE = "DONE";
}
