package cloud.gardener.druid.agent.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

/**
 * One Prometheus metric family with fixed label names, written in the text format 0.0.4 the
 * way Go's client writes it: the name exactly as given (a counter gets no {@code _total}
 * appended), series ordered by their label values, histogram buckets cumulative with
 * {@code +Inf} last, then {@code _sum} and {@code _count}. Micrometer's Prometheus registry
 * cannot do this: it appends {@code _total} to every counter and a {@code _max} gauge to every
 * histogram, so {@code etcdbr_snapshotter_failure} would reach Prometheus under another name.
 */
final class MetricFamily {

  enum Type {
    COUNTER, GAUGE, HISTOGRAM;

    String text() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private static final Comparator<List<String>> BY_VALUES = (a, b) -> {
    for (int i = 0; i < a.size(); i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  };

  private final String name;
  private final String help;
  private final Type type;
  private final List<String> labelNames;
  private final double[] buckets;
  private final DoubleSupplier function;
  private final Map<List<String>, Series> series = new ConcurrentHashMap<>();

  private MetricFamily(String name, String help, Type type, List<String> labelNames,
      double[] buckets, DoubleSupplier function) {
    List<String> sorted = new ArrayList<>(labelNames);
    sorted.sort(null);
    if (!sorted.equals(labelNames)) {
      throw new IllegalArgumentException(name + ": label names must be sorted as Prometheus"
          + " writes them: " + labelNames);
    }
    this.name = name;
    this.help = help;
    this.type = type;
    this.labelNames = List.copyOf(labelNames);
    this.buckets = buckets;
    this.function = function;
  }

  static MetricFamily counter(String name, String help, String... labelNames) {
    return new MetricFamily(name, help, Type.COUNTER, List.of(labelNames), null, null);
  }

  static MetricFamily gauge(String name, String help, String... labelNames) {
    return new MetricFamily(name, help, Type.GAUGE, List.of(labelNames), null, null);
  }

  static MetricFamily histogram(String name, String help, double[] buckets,
      String... labelNames) {
    return new MetricFamily(name, help, Type.HISTOGRAM, List.of(labelNames),
        buckets.clone(), null);
  }

  /** A counter without labels whose value is read at each scrape. */
  static MetricFamily counterFunction(String name, String help, DoubleSupplier value) {
    return new MetricFamily(name, help, Type.COUNTER, List.of(), null, value);
  }

  String name() {
    return name;
  }

  /** The series of these label values (created at zero on first use). */
  Series series(String... labelValues) {
    if (labelValues.length != labelNames.size()) {
      throw new IllegalArgumentException(name + " has labels " + labelNames + ", got "
          + Arrays.toString(labelValues));
    }
    return series.computeIfAbsent(List.of(labelValues), v -> new Series(buckets));
  }

  void writeTo(StringBuilder out) {
    out.append("# HELP ").append(name).append(' ').append(PrometheusText.escapeHelp(help))
        .append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type.text()).append('\n');
    if (function != null) {
      sample(out, name, List.of(), null, function.getAsDouble());
      return;
    }
    List<List<String>> keys = new ArrayList<>(series.keySet());
    keys.sort(BY_VALUES);
    for (List<String> values : keys) {
      Series s = series.get(values);
      if (type == Type.HISTOGRAM) {
        writeHistogram(out, values, s);
      } else {
        sample(out, name, values, null, s.value());
      }
    }
  }

  private void writeHistogram(StringBuilder out, List<String> values, Series s) {
    Series.HistogramState state = s.histogram();
    long cumulative = 0;
    for (int i = 0; i < buckets.length; i++) {
      cumulative += state.counts()[i];
      sample(out, name + "_bucket", values, PrometheusText.formatValue(buckets[i]), cumulative);
    }
    sample(out, name + "_bucket", values, "+Inf", state.count());
    sample(out, name + "_sum", values, null, state.sum());
    sample(out, name + "_count", values, null, state.count());
  }

  private void sample(StringBuilder out, String sampleName, List<String> values, String le,
      double value) {
    out.append(sampleName);
    if (!values.isEmpty() || le != null) {
      out.append('{');
      for (int i = 0; i < values.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(labelNames.get(i)).append("=\"")
            .append(PrometheusText.escapeLabelValue(values.get(i))).append('"');
      }
      if (le != null) {
        out.append(values.isEmpty() ? "" : ",").append("le=\"").append(le).append('"');
      }
      out.append('}');
    }
    out.append(' ').append(PrometheusText.formatValue(value)).append('\n');
  }

  /** One labelled series: a value (counter, gauge) or bucket counts, sum and count. */
  static final class Series {

    record HistogramState(long[] counts, long count, double sum) {
    }

    private final double[] buckets;
    private final long[] counts;
    private double value;
    private long count;

    private Series(double[] buckets) {
      this.buckets = buckets;
      this.counts = buckets == null ? null : new long[buckets.length];
    }

    synchronized void inc() {
      value += 1;
    }

    synchronized void add(double delta) {
      value += delta;
    }

    synchronized void set(double newValue) {
      value = newValue;
    }

    synchronized void observe(double sample) {
      for (int i = 0; i < buckets.length; i++) {
        if (sample <= buckets[i]) {
          counts[i]++;
          break;
        }
      }
      count++;
      value += sample;
    }

    synchronized double value() {
      return value;
    }

    private synchronized HistogramState histogram() {
      return new HistogramState(counts.clone(), count, value);
    }
  }
}
