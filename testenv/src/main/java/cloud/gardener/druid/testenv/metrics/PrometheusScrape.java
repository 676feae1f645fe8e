package cloud.gardener.druid.testenv.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Prometheus text-format (0.0.4) scrape as a scraper reads it: each family's declared type
 * ({@code # TYPE}) and every sample with its labels. Tests of the metrics endpoints compare
 * it with the names, types and labels written in the test.
 */
public final class PrometheusScrape {

  /** One sample line: {@code name{labels} value}. */
  public record Sample(String name, Map<String, String> labels, double value) {
  }

  private final Map<String, String> types = new LinkedHashMap<>();
  private final List<Sample> samples = new ArrayList<>();

  private PrometheusScrape() {
  }

  public static PrometheusScrape parse(String text) {
    PrometheusScrape scrape = new PrometheusScrape();
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      if (line.startsWith("# TYPE ")) {
        String[] parts = line.substring("# TYPE ".length()).split(" ");
        if (scrape.types.put(parts[0], parts[1]) != null) {
          throw new IllegalArgumentException("family declared twice: " + parts[0]);
        }
      } else if (!line.startsWith("#")) {
        scrape.samples.add(sample(line));
      }
    }
    return scrape;
  }

  private static Sample sample(String line) {
    int brace = line.indexOf('{');
    int space = line.lastIndexOf(' ');
    if (brace < 0 || brace > space) {
      return new Sample(line.substring(0, space), Map.of(),
          parseValue(line.substring(space + 1)));
    }
    int close = line.lastIndexOf('}');
    Map<String, String> labels = new TreeMap<>();
    String body = line.substring(brace + 1, close);
    int i = 0;
    while (i < body.length()) {
      int eq = body.indexOf('=', i);
      String name = body.substring(i, eq);
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      while (body.charAt(j) != '"') {
        char c = body.charAt(j);
        if (c == '\\') {
          char next = body.charAt(++j);
          value.append(next == 'n' ? '\n' : next);
        } else {
          value.append(c);
        }
        j++;
      }
      labels.put(name, value.toString());
      i = j + 1;
      if (i < body.length() && body.charAt(i) == ',') {
        i++;
      }
    }
    return new Sample(line.substring(0, brace), labels,
        parseValue(line.substring(close + 1).trim().split(" ")[0]));
  }

  private static double parseValue(String value) {
    return switch (value) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(value);
    };
  }

  /** Family name to its declared type, in the order of the scrape. */
  public Map<String, String> types() {
    return types;
  }

  public List<Sample> samples() {
    return samples;
  }

  /** The samples of this exact sample name ({@code x_bucket}, {@code x_count}, ...). */
  public List<Sample> samples(String name) {
    return samples.stream().filter(s -> s.name().equals(name)).toList();
  }

  /** The value of the sample with exactly these labels. */
  public Optional<Double> value(String name, Map<String, String> labels) {
    return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels))
        .map(Sample::value).findFirst();
  }
}
