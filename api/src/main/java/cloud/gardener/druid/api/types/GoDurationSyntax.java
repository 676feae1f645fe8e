package cloud.gardener.druid.api.types;

import java.math.BigInteger;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Go's {@code time.ParseDuration} grammar and limits, exactly: an optional sign, "0" alone, or
 * one or more decimal numbers (".5" and "5." included) each with a unit (ns, us, µs, μs, ms, s,
 * m, h), at most 2^63-1 nanoseconds. Used for {@code @every} cron schedules.
 */
final class GoDurationSyntax {

  /** The same grammar as a regular expression (overflow is not expressible; see callers). */
  static final String REGEX =
      "[-+]?(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)";

  private static final Map<String, Long> UNITS = Map.of(
      "ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L, "ms", 1_000_000L,
      "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

  /** 2^63 as an unsigned quantity: the largest magnitude a negative duration may have. */
  private static final double TWO_63 = 9.223372036854775808E18;

  private GoDurationSyntax() {
  }

  /** The duration in nanoseconds, or empty when Go would refuse the text. */
  static OptionalLong nanos(String text) {
    String s = text;
    boolean negative = false;
    if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
      negative = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return OptionalLong.of(0);
    }
    if (s.isEmpty()) {
      return OptionalLong.empty();
    }
    BigInteger total = BigInteger.ZERO;
    BigInteger limit = BigInteger.ONE.shiftLeft(63);
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (!(c == '.' || isDigit(c))) {
        return OptionalLong.empty();
      }
      int start = i;
      BigInteger whole = BigInteger.ZERO;
      while (i < s.length() && isDigit(s.charAt(i))) {
        whole = whole.multiply(BigInteger.TEN).add(BigInteger.valueOf(s.charAt(i) - '0'));
        if (whole.compareTo(limit) > 0) {
          return OptionalLong.empty();
        }
        i++;
      }
      boolean pre = i != start;
      long fraction = 0;
      double scale = 1;
      boolean post = false;
      if (i < s.length() && s.charAt(i) == '.') {
        i++;
        int fractionStart = i;
        boolean overflow = false;
        while (i < s.length() && isDigit(s.charAt(i))) {
          if (!overflow) {
            // as Go: digits that no longer fit (unsigned, at most 2^63) are ignored
            long next = fraction * 10 + (s.charAt(i) - '0');
            if (Long.compareUnsigned(fraction, Long.MAX_VALUE / 10) > 0
                || Long.compareUnsigned(next, Long.MIN_VALUE) > 0) {
              overflow = true;
            } else {
              fraction = next;
              scale *= 10;
            }
          }
          i++;
        }
        post = i != fractionStart;
      }
      if (!pre && !post) {
        return OptionalLong.empty();
      }
      int unitStart = i;
      while (i < s.length() && s.charAt(i) != '.' && !isDigit(s.charAt(i))) {
        i++;
      }
      Long unit = UNITS.get(s.substring(unitStart, i));
      if (unit == null) {
        return OptionalLong.empty();
      }
      BigInteger value = whole.multiply(BigInteger.valueOf(unit));
      if (whole.compareTo(limit.divide(BigInteger.valueOf(unit))) > 0) {
        return OptionalLong.empty();
      }
      if (fraction != 0) {
        double f = fraction >= 0 ? fraction : TWO_63; // only 2^63 itself is "negative" here
        value = value.add(new java.math.BigDecimal(f * (unit / scale)).toBigInteger());
        if (value.compareTo(limit) > 0) {
          return OptionalLong.empty();
        }
      }
      total = total.add(value);
      if (total.compareTo(limit) > 0) {
        return OptionalLong.empty();
      }
    }
    if (negative) {
      return OptionalLong.of(total.negate().longValue());
    }
    if (total.compareTo(limit) >= 0) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(total.longValue());
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
