package cloud.gardener.druid.cli.shared;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code --version}: the version and git commit the jar was built from, recorded at build time
 * in {@code version.properties} (the commit is "unknown" when built outside a git checkout).
 */
public final class Version implements IVersionProvider {

  static final String RESOURCE = "version.properties";

  /** What the build recorded; unresolved placeholders read as unknown. */
  public record BuildInfo(String version, String commit, String commitTime) {

    public static BuildInfo of(Properties p) {
      return new BuildInfo(value(p, "version"), value(p, "commit"), value(p, "commitTime"));
    }

    private static String value(Properties p, String key) {
      String v = p.getProperty(key);
      return v == null || v.isBlank() || v.contains("${") ? "unknown" : v;
    }

    public String line() {
      return "druid " + version + " (commit " + commit
          + ("unknown".equals(commitTime) ? "" : ", " + commitTime) + ")";
    }
  }

  public static BuildInfo buildInfo() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return BuildInfo.of(p);
  }

  @Override
  public String[] getVersion() {
    return new String[] {buildInfo().line(),
        "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor")
            + ")"};
  }
}
