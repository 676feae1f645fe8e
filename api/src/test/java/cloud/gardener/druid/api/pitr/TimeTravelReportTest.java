package cloud.gardener.druid.api.pitr;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.pitr.TimeTravelReport.Keys;
import cloud.gardener.druid.api.pitr.TimeTravelReport.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TimeTravelReportTest {

  @Test
  void theJsonRoundTrips() throws Exception {
    TimeTravelReport r = new TimeTravelReport(Outcome.DONE, 42, "wrote 2 keys", 0,
        Keys.of(List.of("/a/1", "/a/2")), Keys.of(List.of("/a/3: changed")), 5, Keys.NONE);
    assertThat(TimeTravelReport.parse(r.toJson())).isEqualTo(r);
  }

  @Test
  void aReportWithManyLongKeysFitsATerminationMessageWithItsCountsWhole() throws Exception {
    List<String> keys = IntStream.range(0, 5_000).mapToObj(i -> "/registry/configmaps/"
        + "x".repeat(200) + "/" + i).toList();
    TimeTravelReport r = new TimeTravelReport(Outcome.DRY_RUN, 42, "m".repeat(5_000), 0,
        Keys.of(keys), Keys.of(keys), 7, Keys.of(keys));

    String json = r.toJson();

    assertThat(json.getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(TimeTravelReport.MAX_BYTES);
    TimeTravelReport read = TimeTravelReport.parse(json);
    assertThat(read.written().count()).isEqualTo(5_000);
    assertThat(read.skipped().count()).isEqualTo(5_000);
    assertThat(read.unchanged()).isEqualTo(7);
    assertThat(read.outcome()).isEqualTo(Outcome.DRY_RUN);
  }
}
