package cloud.gardener.druid.api.types;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration in Go's {@code time.Duration} text form ("20s", "1h30m", "500ms"), the form
 * upstream's {@code metav1.Duration} fields use. The raw text is kept as written so that a
 * resource round-trips unchanged; {@link #toDuration()} parses it.
 *
 * <p>Deserialisation never fails on a bad value (an informer must be able to read every
 * object); the CRD schema pattern rejects bad values at the API server, and
 * {@link #validate(String)} names the problem for objects that predate the schema.
 */
public final class GoDuration {

  /** The schema pattern: one or more number+unit pairs; "0" alone is also valid Go. */
  public static final String PATTERN =
      "^(0|([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+)$";

  private static final Pattern WHOLE = Pattern.compile(PATTERN);
  private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ns|us|µs|ms|s|m|h)");

  private final String text;

  private GoDuration(String text) {
    this.text = text;
  }

  @JsonCreator
  public static GoDuration parse(String text) {
    return new GoDuration(Objects.requireNonNull(text, "text"));
  }

  public static GoDuration of(Duration duration) {
    return new GoDuration(format(duration));
  }

  @JsonValue
  public String text() {
    return text;
  }

  public boolean isValid() {
    return validate(text).isEmpty();
  }

  /** Returns a description of what is wrong with {@code text}, or empty when it is valid. */
  public static Optional<String> validate(String text) {
    if (text == null || !WHOLE.matcher(text).matches()) {
      return Optional.of("'" + text + "' is not a duration such as 20s, 1m30s or 1h");
    }
    return Optional.empty();
  }

  /** The parsed duration; throws {@link IllegalArgumentException} when the text is invalid. */
  public Duration toDuration() {
    validate(text).ifPresent(problem -> {
      throw new IllegalArgumentException(problem);
    });
    if (text.equals("0")) {
      return Duration.ZERO;
    }
    BigDecimal nanos = BigDecimal.ZERO;
    Matcher m = PART.matcher(text);
    while (m.find()) {
      nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unitNanos(m.group(2)))));
    }
    return Duration.ofNanos(nanos.longValueExact());
  }

  private static long unitNanos(String unit) {
    return switch (unit) {
      case "ns" -> 1L;
      case "us", "µs" -> 1_000L;
      case "ms" -> 1_000_000L;
      case "s" -> 1_000_000_000L;
      case "m" -> 60_000_000_000L;
      case "h" -> 3_600_000_000_000L;
      default -> throw new IllegalArgumentException("unknown unit " + unit);
    };
  }

  /** Formats like Go's {@code Duration.String()} for whole seconds and larger ("1h0m0s"). */
  static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    if (d.toNanosPart() != 0 && d.getSeconds() == 0) {
      long ms = d.toMillis();
      return ms * 1_000_000L == d.toNanos() ? ms + "ms" : d.toNanos() + "ns";
    }
    long h = d.toHours();
    int m = d.toMinutesPart();
    int s = d.toSecondsPart();
    if (h > 0) {
      return h + "h" + m + "m" + s + "s";
    }
    if (m > 0) {
      return m + "m" + s + "s";
    }
    return s + "s";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GoDuration other && other.text.equals(text);
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
