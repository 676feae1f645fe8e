package cloud.gardener.druid.cli.shared;

import cloud.gardener.druid.api.types.GoDuration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads durations as kubectl does ({@code 90s}, {@code 9m}, {@code 1h30m}); a bare number or an
 * ISO-8601 duration is refused.
 */
public final class GoDurationConverter implements ITypeConverter<Duration> {

  @Override
  public Duration convert(String value) {
    String text = value.trim();
    GoDuration.validate(text).ifPresent(problem -> {
      throw new TypeConversionException(problem);
    });
    return GoDuration.parse(text).toDuration();
  }

  /** How the durations print back: Go's form, e.g. 10m0s. */
  public static String format(Duration duration) {
    return GoDuration.of(duration).text();
  }
}
