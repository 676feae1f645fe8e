package cloud.gardener.druid.agent.space;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.ToLongFunction;

/**
 * The recent samples of one member's database and their rates (pure): each rate is the
 * least-squares slope over the samples of the last {@code span}, per second. A database that
 * shrank (a defragmentation, a restart on a restored database) starts the window anew: the
 * growth before it says nothing about the growth after it.
 */
final class GrowthWindow {

  /** One sample: when (epoch ms), the revision, the database file, the pages in use. */
  record Sample(long atMillis, long revision, long dbSizeBytes, long inUseBytes) {
  }

  /** How much smaller a database must be than the last sample to start the window anew. */
  static final double SHRINK = 0.9;
  /** The shortest span a rate is given for: fewer seconds say more about noise than growth. */
  static final long MIN_SPAN_MILLIS = 20_000;

  private final long spanMillis;
  private final Deque<Sample> samples = new ArrayDeque<>();

  GrowthWindow(long spanMillis) {
    this.spanMillis = spanMillis;
  }

  synchronized void add(Sample s) {
    Sample last = samples.peekLast();
    if (last != null && (s.dbSizeBytes() < last.dbSizeBytes() * SHRINK
        || s.revision() < last.revision() || s.atMillis() <= last.atMillis())) {
      samples.clear();
    }
    samples.addLast(s);
    while (samples.size() > 2 && samples.peekFirst().atMillis() < s.atMillis() - spanMillis) {
      samples.removeFirst();
    }
  }

  /** How long the samples span, in seconds; 0 until they span enough for a rate. */
  synchronized long spanSeconds() {
    if (samples.size() < 2) {
      return 0;
    }
    long span = samples.peekLast().atMillis() - samples.peekFirst().atMillis();
    return span < MIN_SPAN_MILLIS ? 0 : span / 1000;
  }

  synchronized double perSecond(ToLongFunction<Sample> value) {
    if (spanSeconds() == 0) {
      return 0;
    }
    long t0 = samples.peekFirst().atMillis();
    long v0 = value.applyAsLong(samples.peekFirst());
    double n = samples.size();
    double sumT = 0;
    double sumV = 0;
    for (Sample s : samples) {
      sumT += (s.atMillis() - t0) / 1000.0;
      sumV += value.applyAsLong(s) - v0;
    }
    double meanT = sumT / n;
    double meanV = sumV / n;
    double cov = 0;
    double var = 0;
    for (Sample s : samples) {
      double dt = (s.atMillis() - t0) / 1000.0 - meanT;
      cov += dt * (value.applyAsLong(s) - v0 - meanV);
      var += dt * dt;
    }
    return var == 0 ? 0 : cov / var;
  }
}
