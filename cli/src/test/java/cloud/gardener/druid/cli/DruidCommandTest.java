package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.Version;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

class DruidCommandTest {

  @ParameterizedTest
  @ValueSource(strings = {"operator", "agent", "agent copy", "ctl", "ctl status",
      "ctl wait", "ctl confirm-volumes", "ctl snapshot", "ctl defragment",
      "ctl replace-member-volume", "ctl recover-quorum", "ctl hibernate", "ctl wake",
      "ctl reconcile", "ctl suspend", "ctl resume", "ctl backups", "ctl logs", "plugin",
      "plugin install", "completion"})
  void everyCommandHasHelp(String command) {
    StringWriter out = new StringWriter();
    CommandLine cli = Druid.commandLine();
    cli.setOut(new PrintWriter(out));
    int code = cli.execute((command + " --help").split(" "));
    assertThat(code).isZero();
    assertThat(out.toString()).startsWith("Usage: druid " + command).contains("-h, --help");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "--help"})
  void topLevelUsageListsTheSubcommands(String arg) {
    StringWriter out = new StringWriter();
    CommandLine cli = Druid.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.execute(arg.isEmpty() ? new String[0] : new String[] {arg});
    assertThat(out.toString()).contains("operator", "agent", "ctl", "plugin", "completion");
  }

  /** local and bench need the test kit: they are the developer jar's (devtools), not ours. */
  @Test
  void theProductHasNoDeveloperCommands() {
    StringWriter out = new StringWriter();
    CommandLine cli = Druid.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.execute("--help");
    assertThat(cli.getSubcommands()).doesNotContainKeys("local", "bench");
    assertThat(out.toString()).doesNotContainPattern("(?m)^\\s+(local|bench)\\s");
  }

  @Test
  void unknownOptionIsAUsageError() {
    StringWriter err = new StringWriter();
    CommandLine cli = Druid.commandLine();
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("ctl", "wait", "rollout", "x", "--bogus")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("Unknown option: '--bogus'");
  }

  /** Every option of every command says what it is, shows its default, and names its value. */
  @Test
  void everyOptionHasADescriptionItsDefaultAndAMeaningfulPlaceholder() {
    List<String> problems = new ArrayList<>();
    check(Druid.commandLine().getCommandSpec(), problems);
    assertThat(problems).isEmpty();
  }

  private static void check(CommandSpec command, List<String> problems) {
    for (OptionSpec o : command.options()) {
      if (o.usageHelp() || o.versionHelp()) {
        continue;
      }
      String where = command.qualifiedName() + " " + o.longestName();
      String description = String.join(" ", o.description());
      if (description.isBlank()) {
        problems.add(where + ": no description");
      }
      boolean flag = o.typeInfo().isBoolean();
      if (!flag && o.arity().max() > 0 && o.paramLabel().startsWith("<")) {
        problems.add(where + ": placeholder " + o.paramLabel());
      }
      if (o.defaultValue() != null && !flag
          && !description.toLowerCase(java.util.Locale.ROOT).contains("default")) {
        problems.add(where + ": default " + o.defaultValue() + " not shown");
      }
    }
    command.subcommands().values().forEach(sub -> {
      if (sub.getCommandSpec() != command) {
        check(sub.getCommandSpec(), problems);
      }
    });
  }

  @Test
  void versionNamesTheBuildAndItsCommit() {
    StringWriter out = new StringWriter();
    CommandLine cli = Druid.commandLine();
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute("--version")).isZero();
    assertThat(out.toString()).matches("(?s)druid \\d+\\.\\d+\\.\\d+\\S* \\(commit \\S+.*\\)\n.*")
        .doesNotContain("${").doesNotContain("development build");
  }

  @Test
  void versionWithoutGitSaysUnknownCommit() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("version", "1.2.3");
    p.setProperty("commit", "${git.commit.id.abbrev}");
    p.setProperty("commitTime", "${git.commit.time}");
    assertThat(Version.BuildInfo.of(p).line()).isEqualTo("druid 1.2.3 (commit unknown)");
  }

  @Test
  void completionScriptCoversTheCommandsAndThePlugin() {
    StringWriter out = new StringWriter();
    CommandLine cli = Druid.commandLine();
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute("completion", "bash")).isZero();
    assertThat(out.toString()).contains("complete -F", "confirm-volumes", "replace-member-volume",
        "kubectl-druid");
  }

  @Test
  void kubectlPluginIsCtlUnderTheKubectlName() {
    StringWriter out = new StringWriter();
    CommandLine cli = KubectlDruid.commandLine();
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute("status", "--help")).isZero();
    assertThat(out.toString()).startsWith("Usage: kubectl druid status")
        .contains("--context=CONTEXT", "-n, --namespace=NAMESPACE", "-A, --all-namespaces",
            "-l, --selector=SELECTOR", "-o, --output=json|yaml|wide", "Exit codes:");
  }

  @Test
  void pluginInstallWritesAnExecutableLauncher(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path dir) throws Exception {
    StringWriter out = new StringWriter();
    CommandLine cli = Druid.commandLine();
    cli.setOut(new PrintWriter(out));
    java.nio.file.Path jar = dir.resolve("druid.jar");
    assertThat(cli.execute("plugin", "install", "--dir", dir.toString(), "--jar",
        jar.toString())).isZero();
    java.nio.file.Path launcher = dir.resolve("kubectl-druid");
    assertThat(java.nio.file.Files.isExecutable(launcher)).isTrue();
    assertThat(java.nio.file.Files.readString(launcher)).startsWith("#!/bin/sh")
        .contains("-cp \"" + jar + "\" cloud.gardener.druid.cli.KubectlDruid \"$@\"");
    java.nio.file.Path completer = dir.resolve("kubectl_complete-druid");
    assertThat(java.nio.file.Files.isExecutable(completer)).isTrue();
    assertThat(java.nio.file.Files.readString(completer))
        .contains("cloud.gardener.druid.cli.KubectlDruid __complete \"$@\"");
  }

  /** kubectl's plugin completion: whole words for the word being typed. */
  @Test
  void kubectlCompletionOffersWholeWords() {
    assertThat(KubectlDruid.completions(new String[] {"sta"})).containsExactly("status");
    assertThat(KubectlDruid.completions(new String[] {"status", "--con"}))
        .containsExactly("--context");
    assertThat(KubectlDruid.completions(new String[] {""}))
        .contains("status", "wait", "confirm-volumes", "hibernate", "backups", "logs");
    assertThat(KubectlDruid.completions(new String[] {"snapshot", "--type", ""}))
        .containsExactly("delta", "full");
  }

  @Test
  void theOperatorsDefaultMemberImageIsThisBuildsVersionNotLatest() {
    String version = Version.buildInfo().version();
    assertThat(version).isNotEqualTo("unknown");
    assertThat(OperatorCommand.defaultImage())
        .isEqualTo(cloud.gardener.druid.operator.model.OperatorSettings.IMAGE_REPOSITORY + ":"
            + version)
        .doesNotEndWith(":latest");
  }

  @Test
  void theOperatorsLeaderElectionFlagsDefaultToTheCheapTimingAndRefuseAnUnsafeOne() {
    OperatorCommand command = new OperatorCommand();
    new CommandLine(command).parseArgs();
    assertThat(new cloud.gardener.druid.operator.LeaderElection.Timing(command.leaseDuration,
        command.renewDeadline, command.retryPeriod))
        .isEqualTo(cloud.gardener.druid.operator.LeaderElection.Timing.DEFAULT);

    StringWriter err = new StringWriter();
    CommandLine cli = Druid.commandLine();
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("operator", "--leader-election-retry-period=30s")).isNotZero();
    assertThat(err.toString()).contains("--leader-election-renew-deadline (20 s) must be longer"
        + " than 2.2 x --leader-election-retry-period (30 s)");
  }
}
