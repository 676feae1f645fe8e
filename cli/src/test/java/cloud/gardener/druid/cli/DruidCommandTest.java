package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DruidCommandTest {

  @ParameterizedTest
  @ValueSource(strings = {"operator", "agent", "agent copy", "ctl", "local", "ctl status",
      "ctl wait", "local up", "local down", "local status"})
  void everyCommandHasHelp(String command) {
    StringWriter out = new StringWriter();
    picocli.CommandLine cli = Druid.commandLine();
    cli.setOut(new PrintWriter(out));
    int code = cli.execute((command + " --help").split(" "));
    assertThat(code).isZero();
    assertThat(out.toString()).startsWith("Usage: druid " + command).contains("-h, --help");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "--help"})
  void topLevelUsageListsTheSubcommands(String arg) {
    StringWriter out = new StringWriter();
    picocli.CommandLine cli = Druid.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.execute(arg.isEmpty() ? new String[0] : new String[] {arg});
    assertThat(out.toString()).contains("operator", "agent", "ctl", "local");
  }

  @org.junit.jupiter.api.Test
  void unknownOptionIsAUsageError() {
    StringWriter err = new StringWriter();
    picocli.CommandLine cli = Druid.commandLine();
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("ctl", "wait", "rollout", "x", "--bogus")).isEqualTo(2);
    assertThat(err.toString()).contains("Unknown option: '--bogus'");
  }
}
