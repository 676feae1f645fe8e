package cloud.gardener.druid.cli;

import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code druid plugin install}: writes the {@code kubectl-druid} launcher. */
@Command(name = "plugin", mixinStandardHelpOptions = true,
    description = "Install 'kubectl druid': a kubectl plugin is an executable named"
        + " kubectl-<name> on PATH.",
    subcommands = PluginCommand.Install.class)
final class PluginCommand implements Runnable {

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Writes an executable {@code kubectl-druid} that runs this jar's {@link KubectlDruid}. */
  @Command(name = "install", mixinStandardHelpOptions = true,
      description = "Write the launcher DIR/kubectl-druid, which runs 'kubectl druid ...' with"
          + " this jar and this Java, and DIR/kubectl_complete-druid, kubectl's completer of"
          + " 'kubectl druid <TAB>'; then 'kubectl druid --help' works when DIR is on PATH.",
      exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:written (or shown, with"
          + " --dry-run)", "1:error", "2:usage error"})
  static final class Install implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "${sys:user.home}/.local/bin",
        description = "Where to write kubectl-druid; a directory on PATH (default:"
            + " ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--jar", paramLabel = "FILE",
        description = "The druid jar the launcher runs (default: the running one).")
    Path jar;

    @Option(names = "--dry-run", description = "Only print the launchers.")
    boolean dryRun;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      Path jarFile = jar != null ? jar.toAbsolutePath() : runningJar();
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      Map<Path, String> files = Map.of(
          dir.resolve("kubectl-druid"), launcher(jarFile, java, ""),
          dir.resolve("kubectl_complete-druid"), launcher(jarFile, java,
              KubectlDruid.COMPLETE + " "));
      for (Map.Entry<Path, String> file : new TreeMap<>(files).entrySet()) {
        out.println("will write " + file.getKey() + ":");
        out.print(file.getValue());
      }
      if (dryRun) {
        out.println("(dry run: nothing changed)");
        return ExitCodes.OK;
      }
      Files.createDirectories(dir);
      for (Map.Entry<Path, String> file : files.entrySet()) {
        Files.writeString(file.getKey(), file.getValue());
        Files.setPosixFilePermissions(file.getKey(), PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      out.println("written; check with: kubectl plugin list && kubectl druid --help"
          + " (kubectl_complete-druid completes 'kubectl druid <TAB>', kubectl 1.26+)");
      if (!System.getenv().getOrDefault("PATH", "").contains(dir.toAbsolutePath().toString())) {
        out.println("note: " + dir + " is not on PATH");
      }
      return ExitCodes.OK;
    }

    /** A script running {@link KubectlDruid} with this jar, {@code first} before the arguments. */
    static String launcher(Path jar, Path java, String first) {
      return "#!/bin/sh\n"
          + "# kubectl druid: written by 'druid plugin install'; runs the druid jar.\n"
          + "exec \"${DRUID_JAVA:-" + java + "}\" ${DRUID_JAVA_OPTS:-} -cp \"" + jar + "\" "
          + KubectlDruid.class.getName() + " " + first + "\"$@\"\n";
    }

    private static Path runningJar() {
      try {
        Path p = Path.of(KubectlDruid.class.getProtectionDomain().getCodeSource().getLocation()
            .toURI());
        if (!p.toString().endsWith(".jar")) {
          throw new UserError("not running from the druid jar (" + p + "): pass --jar"
              + " cli/target/druid.jar", ExitCodes.USAGE);
        }
        return p;
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
