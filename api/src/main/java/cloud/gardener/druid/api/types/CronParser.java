package cloud.gardener.druid.api.types;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Parses schedules as robfig/cron v3's {@code ParseStandard} does (etcd-backup-restore
 * parses upstream's schedules with it): five whitespace-separated fields (minute, hour, day of
 * month, month, weekday) of comma-separated ranges ({@code *}, {@code ?}, {@code n},
 * {@code n-m}, each with an optional {@code /step}, also larger than the range), month and
 * weekday names in any case, and the descriptors {@code @yearly}, {@code @annually},
 * {@code @monthly}, {@code @weekly}, {@code @daily}, {@code @midnight}, {@code @hourly} and
 * {@code @every <Go duration>}.
 *
 * <p>Two deliberate refusals, both also refused by upstream's CRD pattern: a
 * {@code TZ=}/{@code CRON_TZ=} prefix (our members evaluate schedules in UTC) and a field made
 * of commas only (robfig accepts it as "never").
 */
final class CronParser {

  /** Inclusive bounds of a field and its names. */
  record Bounds(String field, int min, int max, Map<String, Integer> names) {
  }

  static final Bounds MINUTE = new Bounds("minute", 0, 59, Map.of());
  static final Bounds HOUR = new Bounds("hour", 0, 23, Map.of());
  static final Bounds DAY_OF_MONTH = new Bounds("day of month", 1, 31, Map.of());
  static final Bounds MONTH = new Bounds("month", 1, 12, Map.ofEntries(
      Map.entry("jan", 1), Map.entry("feb", 2), Map.entry("mar", 3), Map.entry("apr", 4),
      Map.entry("may", 5), Map.entry("jun", 6), Map.entry("jul", 7), Map.entry("aug", 8),
      Map.entry("sep", 9), Map.entry("oct", 10), Map.entry("nov", 11), Map.entry("dec", 12)));
  static final Bounds WEEKDAY = new Bounds("weekday", 0, 6, Map.of(
      "sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4, "fri", 5, "sat", 6));

  static final List<Bounds> FIELDS = List.of(MINUTE, HOUR, DAY_OF_MONTH, MONTH, WEEKDAY);

  private static final String EVERY = "@every ";

  /** Thrown for a schedule robfig/cron (or one of our two refusals) does not accept. */
  static final class SyntaxException extends IllegalArgumentException {
    SyntaxException(String message) {
      super(message);
    }
  }

  private CronParser() {
  }

  static CronTimes parse(String spec) {
    if (spec.isEmpty()) {
      throw new SyntaxException("empty schedule");
    }
    if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
      throw new SyntaxException("time zone prefixes (TZ=, CRON_TZ=) are not supported:"
          + " schedules are evaluated in UTC");
    }
    if (spec.startsWith("@")) {
      return descriptor(spec);
    }
    List<String> fields = goFields(spec);
    if (fields.size() != FIELDS.size()) {
      throw new SyntaxException("expected exactly 5 fields (minute hour day-of-month month"
          + " weekday), found " + fields.size());
    }
    long[] bits = new long[FIELDS.size()];
    for (int i = 0; i < bits.length; i++) {
      bits[i] = field(fields.get(i), FIELDS.get(i));
    }
    return new CronTimes.Fields(bits[0], bits[1], bits[2], bits[3], bits[4]);
  }

  private static CronTimes descriptor(String spec) {
    long zero = 1L; // minute 0, hour 0, Sunday; days and months start at 1 (1L << 1)
    return switch (spec) {
      case "@yearly", "@annually" -> new CronTimes.Fields(zero, zero, 1L << 1, 1L << 1,
          all(WEEKDAY));
      case "@monthly" -> new CronTimes.Fields(zero, zero, 1L << 1, all(MONTH), all(WEEKDAY));
      case "@weekly" -> new CronTimes.Fields(zero, zero, all(DAY_OF_MONTH), all(MONTH), zero);
      case "@daily", "@midnight" -> new CronTimes.Fields(zero, zero, all(DAY_OF_MONTH),
          all(MONTH), all(WEEKDAY));
      case "@hourly" -> new CronTimes.Fields(zero, all(HOUR), all(DAY_OF_MONTH), all(MONTH),
          all(WEEKDAY));
      default -> {
        if (!spec.startsWith(EVERY)) {
          throw new SyntaxException("unknown descriptor " + spec + " (known: @yearly,"
              + " @annually, @monthly, @weekly, @daily, @midnight, @hourly, @every <duration>)");
        }
        OptionalLong nanos = GoDurationSyntax.nanos(spec.substring(EVERY.length()));
        if (nanos.isEmpty()) {
          throw new SyntaxException("'" + spec.substring(EVERY.length()) + "' is not a Go"
              + " duration such as 90s, 1h30m or 2.5h");
        }
        yield CronTimes.Every.of(nanos.getAsLong());
      }
    };
  }

  private static long field(String field, Bounds bounds) {
    long bits = 0;
    boolean any = false;
    for (String range : field.split(",")) {
      if (!range.isEmpty()) {
        bits |= range(range, bounds);
        any = true;
      }
    }
    if (!any) {
      throw new SyntaxException(bounds.field() + " field '" + field + "' selects nothing");
    }
    return bits;
  }

  private static long range(String expr, Bounds b) {
    String[] rangeAndStep = expr.split("/", -1);
    String[] lowAndHigh = rangeAndStep[0].split("-", -1);
    long start;
    long end;
    long extra = 0;
    if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
      // robfig ignores whatever follows a hyphen here
      start = b.min();
      end = b.max();
      extra = CronTimes.Fields.STAR;
    } else {
      start = intOrName(lowAndHigh[0], b);
      if (lowAndHigh.length == 1) {
        end = start;
      } else if (lowAndHigh.length == 2) {
        end = intOrName(lowAndHigh[1], b);
      } else {
        throw new SyntaxException(b.field() + " range '" + expr + "' has too many hyphens");
      }
    }
    long step = 1;
    if (rangeAndStep.length == 2) {
      step = integer(rangeAndStep[1], b);
      if (lowAndHigh.length == 1) {
        end = b.max(); // "n/step" means "n-max/step"
      }
      if (step > 1) {
        extra = 0;
      }
    } else if (rangeAndStep.length > 2) {
      throw new SyntaxException(b.field() + " range '" + expr + "' has too many slashes");
    }
    if (start < b.min() || end > b.max()) {
      throw new SyntaxException(b.field() + " '" + expr + "' is outside " + b.min() + "-"
          + b.max());
    }
    if (start > end) {
      throw new SyntaxException(b.field() + " range '" + expr + "' starts after its end");
    }
    if (step == 0) {
      throw new SyntaxException(b.field() + " step in '" + expr + "' must be positive");
    }
    long bits = 0;
    for (long i = start; i <= end; i += step) {
      bits |= 1L << i;
      if (end - i < step) {
        break;
      }
    }
    return bits | extra;
  }

  private static long all(Bounds b) {
    long bits = 0;
    for (int i = b.min(); i <= b.max(); i++) {
      bits |= 1L << i;
    }
    return bits | CronTimes.Fields.STAR;
  }

  private static long intOrName(String text, Bounds b) {
    Integer named = b.names().get(text.toLowerCase(Locale.ROOT));
    return named != null ? named : integer(text, b);
  }

  /** Go's {@code strconv.Atoi} (a sign, decimal digits, 64 bits), refusing negatives. */
  private static long integer(String text, Bounds b) {
    if (!text.matches("[+-]?[0-9]+")) {
      throw new SyntaxException(b.field() + " value '" + text + "' is not a number"
          + (b.names().isEmpty() ? "" : " or a name such as " + example(b)));
    }
    BigInteger value = new BigInteger(text.startsWith("+") ? text.substring(1) : text);
    if (value.bitLength() > 63) {
      throw new SyntaxException(b.field() + " value '" + text + "' is out of range");
    }
    if (value.signum() < 0) {
      throw new SyntaxException(b.field() + " value '" + text + "' is negative");
    }
    return value.longValueExact();
  }

  private static String example(Bounds b) {
    return b == MONTH ? "jan" : "mon";
  }

  /** Go's {@code strings.Fields}: split around runs of Unicode white space. */
  static List<String> goFields(String s) {
    List<String> fields = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    s.codePoints().forEach(cp -> {
      if (isGoSpace(cp)) {
        if (current.length() > 0) {
          fields.add(current.toString());
          current.setLength(0);
        }
      } else {
        current.appendCodePoint(cp);
      }
    });
    if (current.length() > 0) {
      fields.add(current.toString());
    }
    return fields;
  }

  /** Go's {@code unicode.IsSpace}. */
  static boolean isGoSpace(int cp) {
    return (cp >= 0x09 && cp <= 0x0D) || cp == ' ' || cp == 0x85 || cp == 0xA0 || cp == 0x1680
        || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F
        || cp == 0x205F || cp == 0x3000;
  }
}
