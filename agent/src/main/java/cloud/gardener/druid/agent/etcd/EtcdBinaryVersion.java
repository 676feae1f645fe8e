package cloud.gardener.druid.agent.etcd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The minor of an etcd binary, from its {@code --version} (asked once per binary), for the
 * flags etcd renamed: 3.6 dropped the {@code experimental-} prefix of the compaction,
 * warning and corruption-check flags (3.7 removed the old names), 3.5 knows only the prefixed
 * ones; 3.6 turned the boolean experimental switches into feature gates.
 */
public final class EtcdBinaryVersion {

  private static final Pattern VERSION = Pattern.compile("etcd Version: 3\\.(\\d+)\\.");
  private static final Map<Path, Integer> MINORS = new ConcurrentHashMap<>();

  private EtcdBinaryVersion() {
  }

  /** 5 for etcd 3.5.x; an etcd that does not say counts as the newest we know (7). */
  public static int minor(Path etcd) {
    return MINORS.computeIfAbsent(etcd.toAbsolutePath(), EtcdBinaryVersion::ask);
  }

  /** {@code name} as this etcd calls the flag: with {@code experimental-} before 3.6. */
  public static String flag(Path etcd, String name) {
    return "--" + configKey(minor(etcd), name);
  }

  /** {@code name} as etcd 3.{@code minor} calls the config key (the flag without dashes). */
  public static String configKey(int minor, String name) {
    return (minor < 6 ? "experimental-" : "") + name;
  }

  /**
   * etcd's corruption checks, on, as etcd 3.{@code minor} spells them: the initial check (a
   * restarted member compares its hash with its peers' before it serves anything), the
   * compaction hash check (the leader compares the hashes etcd keeps at each compaction,
   * every minute, cheap) and the periodic check (the leader hashes the whole key space and
   * compares with its followers every {@code period}). 3.5 has experimental switches, 3.6+
   * the feature gates {@code InitialCorruptCheck} and {@code CompactHashCheck}.
   */
  public static Map<String, String> corruptionChecks(int minor, Duration period) {
    Map<String, String> c = new LinkedHashMap<>();
    if (minor < 6) {
      c.put("experimental-initial-corrupt-check", "true");
      c.put("experimental-compact-hash-check-enabled", "true");
    } else {
      c.put("feature-gates", "InitialCorruptCheck=true,CompactHashCheck=true");
    }
    c.put(configKey(minor, "corrupt-check-time"), period.toSecondsPart() == 0
        && period.toMillisPart() == 0 ? period.toMinutes() + "m" : period.toMillis() + "ms");
    return c;
  }

  private static int ask(Path etcd) {
    try {
      Process p = new ProcessBuilder(etcd.toString(), "--version").redirectErrorStream(true)
          .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(10, TimeUnit.SECONDS);
      Matcher m = VERSION.matcher(out);
      return m.find() ? Integer.parseInt(m.group(1)) : 7;
    } catch (IOException e) {
      return 7;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 7;
    }
  }
}
