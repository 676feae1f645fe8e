package cloud.gardener.druid.devtools;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.testenv.docs.DocCommands;
import cloud.gardener.druid.testenv.docs.DocCommands.DocCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The developer jar's {@code druid}: the product's commands and {@code local}, {@code bench}, in
 * the order of the usage, built lazily as the product's are (see cli's DruidLazyTreeTest).
 */
class DruidDevTest {

  /** The exit code and what the command printed (stdout, then stderr), as one text. */
  private static String run(CommandLine cli, String args) {
    StringWriter printed = new StringWriter();
    cli.setOut(new PrintWriter(printed, true));
    cli.setErr(new PrintWriter(printed, true));
    return cli.execute(args.isEmpty() ? new String[0] : args.split(" ")) + "\n" + printed;
  }

  @ParameterizedTest
  @ValueSource(strings = {"local", "local up", "local down", "local status", "bench"})
  void everyDeveloperCommandHasHelp(String command) {
    assertThat(run(DruidDev.commandLine(), command + " --help"))
        .startsWith("0\nUsage: druid " + command).contains("-h, --help");
  }

  @Test
  void everySubcommandIsListedInTheUsageInOrder() {
    assertThat(run(DruidDev.commandLine(), "--help")).containsSubsequence(
        "operator", "agent", "ctl", "local", "plugin", "bench", "completion", "help");
  }

  @ParameterizedTest
  @ValueSource(strings = {"local up --help", "bench --help", "local bogus", "ctl status --help",
      "--help", "help local", "completion bash"})
  void aCommandRunsAsWithTheWholeTree(String args) {
    String[] words = args.split(" ");
    assertThat(run(DruidDev.commandLine(words), args))
        .isEqualTo(run(DruidDev.commandLine(), args));
  }

  /** The docs' {@code druid local} and {@code druid bench} lines parse (the rest: cli's test). */
  @Test
  void everyDocumentedDeveloperCommandParses() throws IOException {
    List<String> broken = new ArrayList<>();
    int developer = 0;
    for (DocCommand c : DocCommands.commands()) {
      if (c.plugin() || c.args().isEmpty()
          || !List.of("local", "bench").contains(c.args().get(0))) {
        continue;
      }
      developer++;
      try {
        DruidDev.commandLine().parseArgs(c.args().toArray(String[]::new));
      } catch (CommandLine.ParameterException e) {
        broken.add(c.file() + ": " + c.line() + " -> " + e.getMessage());
      }
    }
    assertThat(broken).isEmpty();
    assertThat(developer).as("druid local/bench commands found in the docs").isPositive();
  }
}
