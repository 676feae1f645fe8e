package cloud.gardener.druid.devtools.bench;

import java.util.List;

/** Nearest-rank percentiles of a few measured durations. */
final class Percentiles {

  private Percentiles() {
  }

  /** The smallest value with at least {@code p} percent of the values at or below it. */
  static long of(List<Long> values, double p) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    if (p <= 0 || p > 100) {
      throw new IllegalArgumentException("percentile must be in (0, 100], was " + p);
    }
    List<Long> sorted = values.stream().sorted().toList();
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(rank - 1);
  }
}
