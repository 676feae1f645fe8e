package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.cli.shared.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code druid} gives picocli only the command its first argument names (a member agent's cold
 * start would otherwise build every command's model); a user sees the same as with the whole
 * tree: help, errors, exit codes, parsed options.
 */
class DruidLazyTreeTest {

  record Run(int exitCode, String out, String err) {
  }

  private static Run run(CommandLine cli, String args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args.isEmpty() ? new String[0] : args.split(" "));
    return new Run(code, out.toString(), err.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"agent --help", "agent -h", "agent --version", "agent copy --help",
      "agent compact --help", "operator --help", "ctl", "ctl --help", "ctl status --help",
      "ctl help wait", "plugin install --help",
      "agent --bogus", "agent copyy", "agent --name", "agent --log-format=xml --name=x",
      "agent --client-port=many", "agent --store-provider=Azure", "ctl statsu",
      "ctl wait rollout x --bogus", "ctl status -o xml", "operator --bogus",
      "operator --leader-election-retry-period=30s", "agent copy --bogus",
      "agnt", "--bogus", "", "--help", "--version", "help", "help agent", "help agent copy",
      "completion bash", "completion fish",
      "--log-format=json agent --help", "agent --log-format json --bogus"})
  void aCommandRunsAsWithTheWholeTree(String args) {
    String[] words = args.isEmpty() ? new String[0] : args.split(" ");
    Run whole = run(Druid.commandLine(), args);
    Run lean = run(Druid.commandLine(words), args);
    assertThat(lean).isEqualTo(whole);
  }

  /**
   * Valid arguments (a member's, values that are command names, an inherited option in any
   * case) parse to the same options.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "agent --name=etcd-test-0 --pod-ip=127.0.0.1 --client-port=2479 --insecure-api"
          + " --store-provider=Local --store-container=/tmp/s --full-snapshot-schedule=0 0 1 1 *",
      "agent --name ctl --etcd-name operator --store-prefix help --log-format=JSON",
      "agent --log-format=json --leases=false --compress-snapshots false",
      "agent copy --source-store-provider=Local --source-store-container=/a"
          + " --source-store-prefix=p --store-provider=Local --store-container=/b --store-prefix=q",
      "ctl status etcd-main -o wide", "operator --leader-election=false"})
  void aCommandParsesAsWithTheWholeTree(String args) {
    String[] words = args.split(" (?=-|[a-z])");
    List<String> whole = parsed(Druid.commandLine(), words);
    assertThat(whole).noneMatch(value -> value.startsWith("error: "));
    assertThat(parsed(Druid.commandLine(words), words)).isEqualTo(whole);
  }

  private static List<String> parsed(CommandLine cli, String[] args) {
    List<String> values = new ArrayList<>();
    try {
      for (CommandLine command : cli.parseArgs(args).asCommandLineList()) {
        values.add(command.getCommandSpec().qualifiedName());
        for (OptionSpec option : command.getCommandSpec().options()) {
          values.add(option.longestName() + "=" + option.getValue());
        }
      }
    } catch (CommandLine.ParameterException e) {
      values.add("error: " + e.getMessage());
    }
    return values;
  }

  @Test
  void theAgentGetsOnlyItsOwnCommandAndHelpTheWholeTree() {
    assertThat(Druid.commandLine("agent", "--name=etcd-main-0").getSubcommands())
        .containsOnlyKeys("agent");
    assertThat(Druid.commandLine("agent").getSubcommands().get("agent").getSubcommands())
        .containsOnlyKeys("copy", "compact", "verify-backups", "restore-to", "undelete");
    assertThat(Druid.commandLine("ctl", "status").getSubcommands()).containsOnlyKeys("ctl");
    for (String[] args : List.of(new String[0], new String[] {"help", "agent"},
        new String[] {"completion", "bash"}, new String[] {"--log-format=json", "agent"},
        new String[] {"agnt"})) {
      assertThat(Druid.commandLine(args).getSubcommands().keySet())
          .containsExactlyElementsOf(Druid.commandLine().getSubcommands().keySet());
    }
  }

  @Test
  void everySubcommandIsListedInTheUsageInOrder() {
    assertThat(run(Druid.commandLine(), "--help").out()).containsSubsequence(
        "operator", "agent", "ctl", "plugin", "completion", "help");
  }

  @Test
  void anUnknownCommandIsAUsageErrorWithASuggestion() {
    Run run = run(Druid.commandLine("agnet"), "agnet");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).contains("Unmatched argument at index 0: 'agnet'", "agent");
  }
}
