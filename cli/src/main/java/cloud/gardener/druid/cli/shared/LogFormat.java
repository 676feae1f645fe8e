package cloud.gardener.druid.cli.shared;

import java.util.Locale;

/**
 * {@code --log-format=text|json} (or {@code $DRUID_LOG_FORMAT}): which appender
 * {@link LogConfiguration} uses. It must be known before the first logger exists, so
 * {@link #configureFrom} reads it from the raw arguments before picocli builds any command;
 * picocli then only validates it.
 */
public enum LogFormat {
  text, json;

  static final String PROPERTY = "druid.logFormat";
  public static final String OPTION = "--log-format";

  /** Sets {@value #PROPERTY} from the arguments (the last occurrence wins), else leaves it. */
  public static void configureFrom(String[] args) {
    String value = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--")) {
        break;
      }
      if (args[i].startsWith(OPTION + "=")) {
        value = args[i].substring(OPTION.length() + 1);
      } else if (args[i].equals(OPTION) && i + 1 < args.length) {
        value = args[i + 1];
      }
    }
    if (value != null) {
      for (LogFormat f : values()) {
        if (f.name().equals(value.toLowerCase(Locale.ROOT))) {
          System.setProperty(PROPERTY, f.name());
        }
      }
    }
  }
}
