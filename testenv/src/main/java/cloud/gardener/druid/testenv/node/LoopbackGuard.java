package cloud.gardener.druid.testenv.node;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds IP address literals outside 127.0.0.0/8 and ::1 in a pod's configuration: the node
 * simulator refuses to start such a pod, because every process of a local run must only talk
 * to loopback addresses (and never to a Service ClusterIP).
 */
public final class LoopbackGuard {

  private static final Pattern IPV4 =
      Pattern.compile("(?<![\\d.])(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?![\\d.])");
  private static final Pattern BRACKETED_IPV6 = Pattern.compile("\\[([0-9a-fA-F:.]*:[0-9a-fA-F:.]*)]");

  private LoopbackGuard() {
  }

  /** The first offending address in {@code text}, if any. */
  public static Optional<String> firstNonLoopback(String text) {
    Matcher v4 = IPV4.matcher(text);
    while (v4.find()) {
      if (isIpv4(v4) && !v4.group(1).equals("127")) {
        return Optional.of(v4.group());
      }
    }
    Matcher v6 = BRACKETED_IPV6.matcher(text);
    while (v6.find()) {
      String address = v6.group(1);
      if (!address.equals("::1") && !address.matches("(?i)::ffff:127\\..*")) {
        return Optional.of(address);
      }
    }
    return Optional.empty();
  }

  /** The first offending (where, address) among named texts, e.g. "env FOO" → value. */
  public static Optional<String> describeFirst(Map<String, String> textsByWhere) {
    for (Map.Entry<String, String> entry : textsByWhere.entrySet()) {
      Optional<String> address = firstNonLoopback(entry.getValue());
      if (address.isPresent()) {
        return Optional.of("non-loopback address " + address.get() + " in " + entry.getKey()
            + ": only 127.0.0.0/8 and ::1 may be used in a local run");
      }
    }
    return Optional.empty();
  }

  private static boolean isIpv4(Matcher m) {
    for (int i = 1; i <= 4; i++) {
      if (Integer.parseInt(m.group(i)) > 255) {
        return false;
      }
    }
    return true;
  }
}
