package cloud.gardener.druid.api.types;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;

/**
 * A standard five-field cron schedule ("0 *&#47;1 * * *"), as upstream's schedules are
 * written. Keeps the raw text so that resources round-trip unchanged; parsing is lazy so
 * that reading an object never fails (the CRD pattern rejects bad values at admission).
 */
public final class CronSchedule {

  /**
   * The schema pattern: five whitespace-separated fields of cron characters. The full
   * grammar (ranges of each field) is checked by {@link #validate(String)}.
   */
  public static final String PATTERN =
      "^\\s*([0-9*?/,LW#A-Za-z-]+\\s+){4}[0-9*?/,LW#A-Za-z-]+\\s*$";

  private static final CronParser PARSER =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  private final String text;

  private CronSchedule(String text) {
    this.text = text;
  }

  @JsonCreator
  public static CronSchedule parse(String text) {
    return new CronSchedule(Objects.requireNonNull(text, "text"));
  }

  @JsonValue
  public String text() {
    return text;
  }

  /** Returns a description of what is wrong with {@code text}, or empty when it is valid. */
  public static Optional<String> validate(String text) {
    try {
      PARSER.parse(text).validate();
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of("'" + text + "' is not a five-field cron schedule: " + e.getMessage());
    }
  }

  public boolean isValid() {
    return validate(text).isEmpty();
  }

  /** The next time the schedule fires strictly after {@code after}. */
  public ZonedDateTime nextAfter(ZonedDateTime after) {
    return executionTime().nextExecution(after)
        .orElseThrow(() -> new IllegalStateException("schedule '" + text + "' never fires"));
  }

  /** The last time the schedule fired at or before {@code at}. */
  public Optional<ZonedDateTime> lastAtOrBefore(ZonedDateTime at) {
    return executionTime().lastExecution(at.plusNanos(1));
  }

  /** The interval between the two firings that follow {@code at}. */
  public Duration intervalAfter(ZonedDateTime at) {
    ZonedDateTime first = nextAfter(at);
    return Duration.between(first, nextAfter(first));
  }

  private ExecutionTime executionTime() {
    validate(text).ifPresent(problem -> {
      throw new IllegalArgumentException(problem);
    });
    Cron cron = PARSER.parse(text);
    return ExecutionTime.forCron(cron);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CronSchedule other && other.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
