package cloud.gardener.druid.operator.capacity;

import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How the capacity figures are rounded for the status: sizes to two significant digits,
 * forecasts down to a coarse ladder. A figure that moves a little every observation then
 * changes the status only when it moves meaningfully (an Etcd at rest costs no write).
 */
public final class Rounding {

  private static final long MI = 1L << 20;
  /** The forecast ladder: a forecast is shown as the largest step it reaches. */
  static final List<Duration> LADDER = List.of(Duration.ZERO, Duration.ofMinutes(1),
      Duration.ofMinutes(2), Duration.ofMinutes(5), Duration.ofMinutes(10),
      Duration.ofMinutes(15), Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(2),
      Duration.ofHours(4), Duration.ofHours(8), Duration.ofHours(12), Duration.ofDays(1),
      Duration.ofDays(2), Duration.ofDays(4), Duration.ofDays(7), Duration.ofDays(14),
      Duration.ofDays(30));

  private Rounding() {
  }

  /** Bytes as a quantity of Ki/Mi/Gi/Ti with at most two significant digits ("45Mi", "1200Mi"). */
  public static Quantity bytes(long n) {
    if (n <= 0) {
      return new Quantity("0");
    }
    String[] units = {"", "Ki", "Mi", "Gi", "Ti"};
    int u = 0;
    double v = n;
    while (v >= 1024 * 10 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    double step = v >= 100 ? Math.pow(10, Math.floor(Math.log10(v)) - 1) : 1;
    long rounded = Math.round(v / step) * (long) step;
    return new Quantity(rounded + units[u]);
  }

  /** A forecast rounded down to the ladder ("30m", "2h", "2d"); empty for none. */
  public static Optional<String> forecast(Optional<Duration> d) {
    return d.map(Rounding::step).map(Rounding::text);
  }

  /** The largest ladder step {@code d} reaches (the last for anything longer). */
  static Duration step(Duration d) {
    Duration step = LADDER.get(0);
    for (Duration s : LADDER) {
      if (d.compareTo(s) >= 0) {
        step = s;
      }
    }
    return step;
  }

  static String text(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    if (d.toDays() > 0 && d.toHours() % 24 == 0) {
      return d.toDays() + "d";
    }
    return d.toHours() > 0 ? d.toHours() + "h" : d.toMinutes() + "m";
  }

  /** A ladder text ("30m", "2h", "2d", "0s") as a duration; empty for anything else. */
  public static Optional<Duration> parse(String text) {
    if (text == null || text.length() < 2) {
      return Optional.empty();
    }
    try {
      long n = Long.parseLong(text.substring(0, text.length() - 1));
      return switch (text.charAt(text.length() - 1)) {
        case 's' -> Optional.of(Duration.ofSeconds(n));
        case 'm' -> Optional.of(Duration.ofMinutes(n));
        case 'h' -> Optional.of(Duration.ofHours(n));
        case 'd' -> Optional.of(Duration.ofDays(n));
        default -> Optional.empty();
      };
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** A rate rounded to two significant digits. */
  public static long rate(double perSecond) {
    if (perSecond < 1) {
      return perSecond < 0.5 ? 0 : 1;
    }
    double step = perSecond >= 100 ? Math.pow(10, Math.floor(Math.log10(perSecond)) - 1) : 1;
    return Math.round(perSecond / step) * (long) step;
  }

  /** {@code n} rounded up to a whole number of MiB. */
  static long upToMi(long n) {
    return (n + MI - 1) / MI * MI;
  }
}
