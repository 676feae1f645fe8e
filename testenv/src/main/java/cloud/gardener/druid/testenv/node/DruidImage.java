package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Our own image: its entry point is the {@code druid} command, so the container's args (after
 * an optional leading {@code druid} command) are the {@code druid} subcommand and its options.
 * It runs either the fat jar ({@link #jar}) or, where the jar is not built yet, a main class
 * per subcommand on a classpath ({@link #classpath}).
 */
public final class DruidImage implements ImageRuntime {

  public static final String DEFAULT_IMAGE =
      "europe-docker.pkg.dev/gardener-project/public/gardener/etcd-druid-jvm:latest";

  /** {@code druid agent …} → the agent's own main class, which takes the args after "agent". */
  public static final Map<String, String> DEFAULT_MAIN_CLASSES =
      Map.of("agent", "cloud.gardener.druid.agent.AgentMain");

  /** JVM options for small, fast-starting processes that re-resolve names at once. */
  static final List<String> JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
      "-Xmx256m", "-Xss512k", "-Dsun.net.inetaddr.ttl=1", "-Dsun.net.inetaddr.negative.ttl=0");

  private final String image;
  private final Path jar;
  private final String classpath;
  private final Map<String, String> mainClasses;

  private DruidImage(String image, Path jar, String classpath, Map<String, String> mainClasses) {
    this.image = image;
    this.jar = jar;
    this.classpath = classpath;
    this.mainClasses = mainClasses;
  }

  /** Runs {@code java -jar <jar> <args>}. */
  public static DruidImage jar(String image, Path jar) {
    return new DruidImage(image, jar.toAbsolutePath(), null, Map.of());
  }

  /**
   * Runs {@code java -cp <classpath> <main class of the subcommand> <args after the
   * subcommand>}, e.g. the test JVM's own {@code java.class.path}.
   */
  public static DruidImage classpath(String image, String classpath,
      Map<String, String> mainClasses) {
    return new DruidImage(image, null, classpath, Map.copyOf(mainClasses));
  }

  /**
   * Our image ships etcd beside the agent; here the agent finds the built etcd through
   * {@code DRUID_ETCD_BIN_DIR} and every built etcd version through
   * {@code DRUID_ETCD_VERSIONS_DIR} (a test that runs another minor builds it first with
   * {@link EtcdBuilds#directory}).
   */
  @Override
  public Map<String, String> imageEnv() {
    return Map.of("DRUID_ETCD_BIN_DIR",
        cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries.directory().toString(),
        "DRUID_ETCD_VERSIONS_DIR", EtcdBuilds.versionsDirectory().toString());
  }

  /** The fat jar this image runs, if it runs one. */
  public java.util.Optional<Path> jar() {
    return java.util.Optional.ofNullable(jar);
  }

  @Override
  public boolean handles(String candidate) {
    return ImageRuntime.repository(candidate).equals(ImageRuntime.repository(image));
  }

  @Override
  public List<String> commandLine(List<String> command, List<String> args) {
    List<String> druidArgs = new ArrayList<>(command);
    if (!druidArgs.isEmpty() && ImageRuntime.basename(druidArgs.get(0)).equals("druid")) {
      druidArgs.remove(0);
    }
    druidArgs.addAll(args);
    List<String> argv = new ArrayList<>();
    argv.add(javaExecutable());
    argv.addAll(JVM_OPTIONS);
    if (jar != null) {
      argv.add("-jar");
      argv.add(jar.toString());
      argv.addAll(druidArgs);
      return argv;
    }
    String subcommand = druidArgs.isEmpty() ? "" : druidArgs.get(0);
    String mainClass = mainClasses.get(subcommand);
    if (mainClass == null) {
      throw new IllegalArgumentException("no main class for 'druid " + subcommand
          + "' on the classpath runtime; known: " + mainClasses.keySet());
    }
    argv.add("-cp");
    argv.add(classpath);
    argv.add(mainClass);
    argv.addAll(druidArgs.subList(1, druidArgs.size()));
    return argv;
  }

  static String javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
