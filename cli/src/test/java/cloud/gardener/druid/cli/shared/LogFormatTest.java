package cloud.gardener.druid.cli.shared;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.Configurator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class LogFormatTest {

  @AfterEach
  void restore() throws Exception {
    System.clearProperty(LogFormat.PROPERTY);
    configure("/logback-test.xml");
  }

  private static void configure(String resource) throws Exception {
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(resetContext());
    configurator.doConfigure(LogFormatTest.class.getResource(resource));
  }

  /** druid's own configuration, as a druid process gets it (the tests have logback-test.xml). */
  private static void configureAsDruid() {
    LogConfiguration.apply(resetContext(), LogConfiguration.format(), null);
  }

  private static LoggerContext resetContext() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    return context;
  }

  @Test
  void theOptionIsReadBeforeAnyCommandExists() {
    LogFormat.configureFrom(new String[] {"agent", "--log-format=json", "--name", "x"});
    assertThat(System.getProperty(LogFormat.PROPERTY)).isEqualTo("json");
    LogFormat.configureFrom(new String[] {"--log-format", "text", "operator"});
    assertThat(System.getProperty(LogFormat.PROPERTY)).isEqualTo("text");
    LogFormat.configureFrom(new String[] {"ctl", "--", "--log-format=json"});
    assertThat(System.getProperty(LogFormat.PROPERTY)).isEqualTo("text");
  }

  @Test
  void jsonWritesOneObjectPerLine() throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      LogFormat.configureFrom(new String[] {"--log-format=json"});
      configureAsDruid();
      LoggerFactory.getLogger("druid.test").info("member {} is \"ready\"", "etcd-main-0");
    } finally {
      System.setErr(err);
    }
    String[] lines = captured.toString(StandardCharsets.UTF_8).split("\n");
    assertThat(lines).hasSize(1);
    JsonNode line = new ObjectMapper().readTree(lines[0]);
    assertThat(line.get("level").asText()).isEqualTo("INFO");
    assertThat(line.get("loggerName").asText()).isEqualTo("druid.test");
    assertThat(line.get("formattedMessage").asText())
        .isEqualTo("member etcd-main-0 is \"ready\"");
  }

  @Test
  void aLogbackTestXmlOrAConfigurationFileWins() {
    LoggerContext context = new LoggerContext();
    assertThat(new LogConfiguration().configure(context))
        .isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders()).isExhausted();
  }

  @Test
  void textIsTheDefault() throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      configureAsDruid();
      LoggerFactory.getLogger("druid.test").info("plain");
    } finally {
      System.setErr(err);
    }
    assertThat(captured.toString(StandardCharsets.UTF_8)).matches(
        "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[.*\\] druid.test - plain\n");
  }
}
