package cloud.gardener.druid.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.cli.KubectlDruid;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.GoDurationConverter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

class GoDurationConverterTest {

  private final GoDurationConverter converter = new GoDurationConverter();

  @ParameterizedTest
  @CsvSource({"90s,PT1M30S", "9m,PT9M", "1h30m,PT1H30M", "500ms,PT0.5S", "2h,PT2H", "0,PT0S",
      "1.5h,PT1H30M"})
  void readsKubectlDurations(String text, String iso) {
    assertThat(converter.convert(text)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest
  @ValueSource(strings = {"PT9M", "9", "9 m", "9min", "-5s", ""})
  void refusesWhatKubectlRefuses(String text) {
    assertThatThrownBy(() -> converter.convert(text)).isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("is not a duration such as 20s, 1m30s or 1h");
  }

  @Test
  void printsDurationsAsGoDoes() {
    assertThat(GoDurationConverter.format(Duration.ofMinutes(9))).isEqualTo("9m0s");
  }

  @Test
  void waitTakesNineMinutesAsKubectlUsersTypeIt() {
    CtlWaitCommand wait = new CtlWaitCommand();
    new CommandLine(wait).parseArgs("rollout", "etcd-main", "-n", "default", "--timeout", "9m");
    assertThat(wait.timeout).isEqualTo(Duration.ofMinutes(9));
  }

  @Test
  void anIsoDurationIsAUsageErrorNamingTheOption() {
    StringWriter err = new StringWriter();
    CommandLine cli = KubectlDruid.commandLine();
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("wait", "rollout", "etcd-main", "--timeout", "PT9M"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("--timeout").contains("'PT9M' is not a duration");
  }
}
