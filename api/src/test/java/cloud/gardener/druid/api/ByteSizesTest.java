package cloud.gardener.druid.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ByteSizesTest {

  @Test
  void bytesBelowAKibibyteStayBytesAndLargerOnesGetABinaryUnitWithOneDecimal() {
    assertThat(ByteSizes.of(0)).isEqualTo("0 B");
    assertThat(ByteSizes.of(1023)).isEqualTo("1023 B");
    assertThat(ByteSizes.of(1536)).isEqualTo("1.5 KiB");
    assertThat(ByteSizes.of(120L << 20)).isEqualTo("120.0 MiB");
    assertThat(ByteSizes.of(3L << 30)).isEqualTo("3.0 GiB");
    assertThat(ByteSizes.of(5L << 40)).isEqualTo("5.0 TiB");
    assertThat(ByteSizes.of(2048L << 40)).isEqualTo("2048.0 TiB");
  }

  @Test
  void progressNamesTheTotalMarksAnEstimateAndLeavesOutAnUnknownTotal() {
    assertThat(ByteSizes.ofTotal(120L << 20, 512L << 20, true))
        .isEqualTo("120.0 MiB of ~512.0 MiB");
    assertThat(ByteSizes.ofTotal(120L << 20, 512L << 20, false))
        .isEqualTo("120.0 MiB of 512.0 MiB");
    assertThat(ByteSizes.ofTotal(700, 0, true)).isEqualTo("700 B");
  }
}
