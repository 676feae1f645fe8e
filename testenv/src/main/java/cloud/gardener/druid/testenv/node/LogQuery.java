package cloud.gardener.druid.testenv.node;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The options of a kubelet's {@code /containerLogs} request, as the API server passes
 * {@code pods/log}'s: {@code tailLines}, {@code sinceSeconds} or {@code sinceTime},
 * {@code follow}, {@code previous}, {@code timestamps}, {@code limitBytes}.
 */
record LogQuery(OptionalInt tailLines, Optional<Instant> since, boolean follow, boolean previous,
    boolean timestamps, OptionalLong limitBytes) {

  /** Parses a raw query string (null for none); {@code sinceSeconds} counts back from now. */
  static LogQuery parse(String rawQuery, Instant now) {
    Map<String, String> q = parameters(rawQuery);
    Optional<Instant> since = Optional.empty();
    if (q.containsKey("sinceSeconds")) {
      since = Optional.of(now.minusSeconds(Long.parseLong(q.get("sinceSeconds"))));
    } else if (q.containsKey("sinceTime")) {
      since = Optional.of(Instant.parse(q.get("sinceTime")));
    }
    return new LogQuery(
        q.containsKey("tailLines") ? OptionalInt.of(Integer.parseInt(q.get("tailLines")))
            : OptionalInt.empty(),
        since, flag(q, "follow"), flag(q, "previous"), flag(q, "timestamps"),
        q.containsKey("limitBytes") ? OptionalLong.of(Long.parseLong(q.get("limitBytes")))
            : OptionalLong.empty());
  }

  private static boolean flag(Map<String, String> q, String name) {
    return "true".equalsIgnoreCase(q.get(name)) || "1".equals(q.get(name));
  }

  private static Map<String, String> parameters(String rawQuery) {
    Map<String, String> q = new HashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return q;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      q.put(URLDecoder.decode(key, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return q;
  }
}
