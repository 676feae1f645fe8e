package cloud.gardener.druid.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
          + " this jar and this Java; then 'kubectl druid --help' works when DIR is on PATH.",
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

    @Option(names = "--dry-run", description = "Only print the launcher.")
    boolean dryRun;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      Path target = dir.resolve("kubectl-druid");
      String script = launcher(jar != null ? jar.toAbsolutePath() : runningJar(),
          Path.of(System.getProperty("java.home"), "bin", "java"));
      out.println("will write " + target + ":");
      out.print(script);
      if (dryRun) {
        out.println("(dry run: nothing changed)");
        return ExitCodes.OK;
      }
      Files.createDirectories(dir);
      Files.writeString(target, script);
      Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
      out.println("written; check with: kubectl plugin list && kubectl druid --help");
      if (!System.getenv().getOrDefault("PATH", "").contains(dir.toAbsolutePath().toString())) {
        out.println("note: " + dir + " is not on PATH");
      }
      return ExitCodes.OK;
    }

    static String launcher(Path jar, Path java) {
      return "#!/bin/sh\n"
          + "# kubectl druid: written by 'druid plugin install'; runs the druid jar.\n"
          + "exec \"${DRUID_JAVA:-" + java + "}\" ${DRUID_JAVA_OPTS:-} -cp \"" + jar + "\" "
          + KubectlDruid.class.getName() + " \"$@\"\n";
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
