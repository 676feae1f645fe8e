package cloud.gardener.druid.api;

import java.util.Locale;

/** Byte counts as people read them (binary units), for progress lines and listings. */
public final class ByteSizes {

  private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB"};

  private ByteSizes() {
  }

  /** 512 B, 1.5 KiB, 3.2 MiB, 1.1 GiB. */
  public static String of(long n) {
    if (n < 1024) {
      return n + " B";
    }
    double v = n;
    int u = -1;
    while (v >= 1024 && u < UNITS.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, UNITS[u]);
  }

  /**
   * "120.0 MiB of 512.0 MiB", with "~" before an estimated total; only the bytes done when
   * the total is unknown (0).
   */
  public static String ofTotal(long done, long total, boolean estimated) {
    return total <= 0 ? of(done) : of(done) + " of " + (estimated ? "~" : "") + of(total);
  }
}
