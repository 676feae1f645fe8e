package cloud.gardener.druid.operator.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

class WatchGapsTest {

  private static Pod pod(String name, String version) {
    return new PodBuilder().withNewMetadata().withName(name).withResourceVersion(version)
        .endMetadata().build();
  }

  private static BigInteger rv(long v) {
    return BigInteger.valueOf(v);
  }

  @Test
  void aListThatShowsTheVersionsLastSeenHasNoGap() {
    WatchGaps gaps = new WatchGaps();
    gaps.seen("Pod", "ADDED", pod("a", "10"));
    gaps.seen("Pod", "MODIFIED", pod("a", "12"));
    gaps.seen("Pod", "ADDED", pod("b", "11"));
    WatchGaps.Relisted r = gaps.relisted("Pod", List.of(pod("a", "12"), pod("b", "11")), rv(40));
    assertThat(r.changed()).isEmpty();
    assertThat(r.gone()).isEmpty();
    assertThat(gaps.gaps()).isEmpty();
  }

  @Test
  void aChangedAnAppearedAndAGoneObjectFormOneGapAfterTheLastDeliveredVersion() {
    WatchGaps gaps = new WatchGaps();
    gaps.seen("Pod", "ADDED", pod("a", "10"));
    gaps.seen("Pod", "ADDED", pod("b", "11"));
    gaps.seen("Pod", "ADDED", pod("gone-seen", "9"));
    gaps.seen("Pod", "DELETED", pod("gone-seen", "13"));
    WatchGaps.Relisted r = gaps.relisted("Pod", List.of(pod("a", "15"), pod("c", "16")), rv(20));
    assertThat(r.changed()).extracting(p -> p.getMetadata().getName()).containsExactly("a", "c");
    assertThat(r.gone()).containsExactly("b");
    assertThat(gaps.gaps()).containsExactly(new WatchGaps.Gap("Pod", rv(13), rv(20), 3));
  }

  @Test
  void aPodGapMattersOnlyWhenAnEtcdVersionFallsInsideIt() {
    WatchGaps gaps = new WatchGaps();
    gaps.seen("Pod", "ADDED", pod("a", "10"));
    gaps.relisted("Pod", List.of(pod("a", "15")), rv(20));
    assertThat(gaps.incomplete(List.of(rv(5), rv(10), rv(21)))).isEmpty();
    assertThat(gaps.incomplete(List.of(rv(5), rv(17)))).singleElement().asString()
        .contains("1 Pod changes unseen between rv 10 and 20");
  }

  @Test
  void anyGapInTheEtcdsOwnHistoryMakesItIncomplete() {
    WatchGaps gaps = new WatchGaps();
    gaps.seen("Etcd", "ADDED", pod("x", "5"));
    gaps.relisted("Etcd", List.of(pod("x", "8")), rv(9));
    assertThat(gaps.incomplete(List.of(rv(5), rv(8)))).singleElement().asString()
        .contains("1 Etcd changes unseen between rv 5 and 9");
  }

  @Test
  void versionsTheOldWatchDeliveredAfterTheListAreNoGap() {
    WatchGaps gaps = new WatchGaps();
    gaps.seen("Pod", "ADDED", pod("a", "10"));
    gaps.seen("Pod", "MODIFIED", pod("a", "25"));
    gaps.seen("Pod", "ADDED", pod("new", "26"));
    WatchGaps.Relisted r = gaps.relisted("Pod", List.of(pod("a", "10")), rv(20));
    assertThat(r.changed()).isEmpty();
    assertThat(r.gone()).isEmpty();
    assertThat(gaps.gaps()).isEmpty();
  }

  @Test
  void kindsAreKeptApart() {
    WatchGaps gaps = new WatchGaps();
    gaps.seen("Etcd", "ADDED", pod("x", "5"));
    assertThat(gaps.relisted("Pod", List.of(), rv(6)).gone()).isEmpty();
    assertThat(gaps.gaps()).isEmpty();
  }
}
