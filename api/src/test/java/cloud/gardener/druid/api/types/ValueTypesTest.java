package cloud.gardener.druid.api.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class ValueTypesTest {

  @Test
  void goDurationsParseLikeGo() {
    assertThat(GoDuration.parse("20s").toDuration()).isEqualTo(Duration.ofSeconds(20));
    assertThat(GoDuration.parse("1h30m").toDuration()).isEqualTo(Duration.ofMinutes(90));
    assertThat(GoDuration.parse("1.5s").toDuration()).isEqualTo(Duration.ofMillis(1500));
    assertThat(GoDuration.parse("250ms").toDuration()).isEqualTo(Duration.ofMillis(250));
    assertThat(GoDuration.parse("0").toDuration()).isEqualTo(Duration.ZERO);
    assertThat(GoDuration.of(Duration.ofHours(1)).text()).isEqualTo("1h0m0s");
    assertThat(GoDuration.of(Duration.ofSeconds(20)).text()).isEqualTo("20s");
  }

  @Test
  void badDurationsAreNamedNotSwallowed() {
    GoDuration bad = GoDuration.parse("20 seconds");
    assertThat(bad.isValid()).isFalse();
    assertThatThrownBy(bad::toDuration).hasMessageContaining("'20 seconds' is not a duration");
  }

  @Test
  void cronSchedulesComputeNextAndInterval() {
    CronSchedule hourly = CronSchedule.parse("0 */1 * * *");
    ZonedDateTime t = ZonedDateTime.of(2026, 1, 1, 10, 15, 0, 0, ZoneOffset.UTC);
    assertThat(hourly.nextAfter(t)).isEqualTo(t.withHour(11).withMinute(0));
    assertThat(hourly.intervalAfter(t)).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void badCronIsRejectedWithItsText() {
    assertThat(CronSchedule.validate("61 * * * *")).get().asString().contains("'61 * * * *'");
    assertThat(CronSchedule.validate("every hour")).isPresent();
    assertThat(CronSchedule.parse("every hour").isValid()).isFalse();
  }

  @Test
  void quantitiesValidateAndConvert() {
    assertThat(Quantities.validate(new Quantity("16Gi"))).isEmpty();
    assertThat(Quantities.validate(new Quantity("12 GiB"))).isPresent();
    assertThat(Quantities.bytesLong(new Quantity("16Gi"))).isEqualTo(16L << 30);
  }
}
