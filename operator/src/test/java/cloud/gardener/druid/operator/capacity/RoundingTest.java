package cloud.gardener.druid.operator.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RoundingTest {

  @Test
  void sizesKeepTwoSignificantDigits() {
    assertThat(Rounding.bytes(0)).isEqualTo(new Quantity("0"));
    assertThat(Rounding.bytes((45L << 20) + (300L << 10))).isEqualTo(new Quantity("45Mi"));
    assertThat(Rounding.bytes(1234L << 20)).isEqualTo(new Quantity("1200Mi"));
    assertThat(Rounding.bytes(20L << 30)).isEqualTo(new Quantity("20Gi"));
    assertThat(Rounding.bytes(9000)).isEqualTo(new Quantity("9000"));
  }

  @Test
  void forecastsAreRoundedDownToTheLadder() {
    assertThat(Rounding.forecast(Optional.of(Duration.ofMinutes(7)))).contains("5m");
    assertThat(Rounding.forecast(Optional.of(Duration.ofMinutes(90)))).contains("1h");
    assertThat(Rounding.forecast(Optional.of(Duration.ofDays(3)))).contains("2d");
    assertThat(Rounding.forecast(Optional.of(Duration.ofDays(100)))).contains("30d");
    assertThat(Rounding.forecast(Optional.of(Duration.ofSeconds(30)))).contains("0s");
    assertThat(Rounding.forecast(Optional.empty())).isEmpty();
  }

  @Test
  void aForecastMovingInsideOneStepGivesTheSameText() {
    assertThat(Rounding.forecast(Optional.of(Duration.ofMinutes(31))))
        .isEqualTo(Rounding.forecast(Optional.of(Duration.ofMinutes(59))));
  }

  @Test
  void ladderTextsParseBack() {
    for (Duration step : Rounding.LADDER) {
      assertThat(Rounding.parse(Rounding.text(step))).contains(step);
    }
    assertThat(Rounding.parse("soon")).isEmpty();
  }

  @Test
  void ratesKeepTwoSignificantDigits() {
    assertThat(Rounding.rate(0.2)).isZero();
    assertThat(Rounding.rate(0.7)).isEqualTo(1);
    assertThat(Rounding.rate(57.4)).isEqualTo(57);
    assertThat(Rounding.rate(1234)).isEqualTo(1200);
  }
}
