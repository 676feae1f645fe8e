package cloud.gardener.druid.cli.shared;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * druid's logging, set up in code (found by logback through {@code META-INF/services}) instead
 * of a logback.xml: the XML configurator loads about 450 classes (Joran, the JDK's XML parser)
 * that every member agent would carry in its metaspace all the time. Log lines go to stderr,
 * as text or, with {@code --log-format=json} (system property {@value LogFormat#PROPERTY}, else
 * {@code $DRUID_LOG_FORMAT}), as JSON objects one a line, as etcd writes its own (the agent
 * passes etcd's output through unchanged), so a member's log is JSON throughout. The root level
 * is {@code $DRUID_LOG_LEVEL} (default INFO). A {@code logback.configurationFile} system
 * property or a {@code logback-test.xml} on the class path still wins.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class LogConfiguration extends ContextAwareBase implements Configurator {

  static final String TEXT_PATTERN = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{24} - %msg%n";
  private static final Map<String, Level> QUIET = Map.of(
      "io.fabric8.kubernetes.client.informers", Level.WARN,
      "io.grpc", Level.WARN,
      "io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils", Level.ERROR,
      "io.netty", Level.WARN,
      "io.vertx", Level.WARN);

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null
        || LogConfiguration.class.getClassLoader().getResource("logback-test.xml") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    apply(context, format(), System.getenv("DRUID_LOG_LEVEL"));
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** The format asked for: the system property, else the environment, else text. */
  static LogFormat format() {
    String value = Optional.ofNullable(System.getProperty(LogFormat.PROPERTY))
        .orElseGet(() -> System.getenv("DRUID_LOG_FORMAT"));
    return value != null && value.toLowerCase(Locale.ROOT).equals(LogFormat.json.name())
        ? LogFormat.json : LogFormat.text;
  }

  static void apply(LoggerContext context, LogFormat format, String rootLevel) {
    context.getStatusManager().add(new NopStatusListener());
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName(format.name());
    appender.setTarget("System.err");
    appender.setEncoder(encoder(context, format));
    appender.start();
    QUIET.forEach((name, level) -> context.getLogger(name).setLevel(level));
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(rootLevel, Level.INFO));
    root.addAppender(appender);
  }

  private static Encoder<ILoggingEvent> encoder(LoggerContext context, LogFormat format) {
    return switch (format) {
      case text -> {
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(context);
        text.setPattern(TEXT_PATTERN);
        text.start();
        yield text;
      }
      case json -> {
        JsonEncoder json = new JsonEncoder();
        json.setContext(context);
        json.setWithSequenceNumber(false);
        json.setWithNanoseconds(false);
        json.setWithContext(false);
        json.setWithMessage(false);
        json.setWithArguments(false);
        json.setWithFormattedMessage(true);
        json.start();
        yield json;
      }
    };
  }
}
