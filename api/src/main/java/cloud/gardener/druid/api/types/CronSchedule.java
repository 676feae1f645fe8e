package cloud.gardener.druid.api.types;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;

/**
 * A schedule as upstream writes it ("0 *&#47;24 * * *", "@daily", "@every 6h"), read and
 * evaluated as robfig/cron v3's standard parser does (see {@link CronParser}). Keeps the raw
 * text so that resources round-trip unchanged; parsing is lazy so that reading an object never
 * fails (the CRD's {@link #PATTERN} and {@link #RULE} reject bad values at admission and admit
 * exactly what {@link #validate(String)} accepts).
 */
public final class CronSchedule {

  /** The schema pattern: the grammar of robfig's standard parser with each field's range. */
  public static final String PATTERN = CronGrammar.PATTERN;

  /** The CEL rule completing {@link #PATTERN}: range order and {@code @every} overflow. */
  public static final String RULE = CronGrammar.RULE;

  public static final String RULE_MESSAGE = CronGrammar.RULE_MESSAGE;

  /** How far ahead {@link #nextAfter} places the activation of a schedule that never fires. */
  public static final int NEVER_YEARS = 100;

  /** Longest schedule admitted (a bound for the CEL rule's cost). */
  public static final int MAX_LENGTH = CronGrammar.MAX_LENGTH;

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
      times(text);
      return Optional.empty();
    } catch (CronParser.SyntaxException e) {
      return Optional.of("'" + text + "' is not a cron schedule: " + e.getMessage());
    }
  }

  public boolean isValid() {
    return validate(text).isEmpty();
  }

  /**
   * The first activation strictly after {@code after}, in its zone, or empty when the
   * schedule has none within five years (robfig's limit; e.g. "0 0 30 2 *" never fires).
   */
  public Optional<ZonedDateTime> next(ZonedDateTime after) {
    return times(text).next(after);
  }

  /**
   * The next activation strictly after {@code after}. A valid schedule that never fires
   * ({@link #next} empty) gives a time {@link #NEVER_YEARS} years ahead, so that runners wait
   * instead of failing: robfig/cron's runner likewise never runs such an entry.
   */
  public ZonedDateTime nextAfter(ZonedDateTime after) {
    return next(after).orElseGet(() -> after.plusYears(NEVER_YEARS));
  }

  /** The interval between the two activations that follow {@code at}. */
  public Duration intervalAfter(ZonedDateTime at) {
    ZonedDateTime first = nextAfter(at);
    return Duration.between(first, nextAfter(first));
  }

  private static CronTimes times(String text) {
    if (text.length() > MAX_LENGTH) {
      throw new CronParser.SyntaxException("longer than " + MAX_LENGTH + " characters");
    }
    return CronParser.parse(text);
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
