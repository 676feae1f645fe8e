package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.devtools.bench.HistoryChecks.Check;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryChecksTest {

  /** Two clients, three acknowledged writes from revision 10 on, all seen by the watch. */
  private static ChaosHistory healthy() {
    ChaosHistory h = new ChaosHistory(10);
    h.acknowledged("w0", "k/0", 10);
    h.answered("w0", false, 10);
    h.acknowledged("w1", "k/1", 11);
    h.acknowledged("w0", "k/2", 12);
    h.delivered("k/0", 10);
    h.delivered("k/1", 11);
    h.delivered("k/2", 12);
    h.clusterId(0xabcL);
    h.membership(3, 0);
    h.membership(4, 1);
    return h;
  }

  private static final Map<String, Long> FINAL = Map.of("k/0", 10L, "k/1", 11L, "k/2", 12L);

  @Test
  void aHealthyHistoryPassesEveryCheck() {
    assertThat(HistoryChecks.check(healthy().snapshot(FINAL), 3)).allMatch(Check::held);
  }

  @Test
  void anAcknowledgedWriteMissingAtTheEndIsLost() {
    Check c = HistoryChecks.noAcknowledgedWriteLost(healthy().snapshot(
        Map.of("k/0", 10L, "k/2", 12L)));
    assertThat(c.held()).isFalse();
    assertThat(c.detail()).contains("k/1@11 missing");
  }

  @Test
  void anAnswerBehindTheClientsPreviousOneIsASetBack() {
    ChaosHistory h = healthy();
    h.answered("w0", false, 11); // behind its write at 12
    Check c = HistoryChecks.revisionsOnlyGrow(h.snapshot(FINAL));
    assertThat(c.held()).isFalse();
    assertThat(c.detail()).contains("w0: 12 then 11");
  }

  @Test
  void aWriteAtTheSameRevisionAsTheClientsPreviousWriteIsASetBack() {
    ChaosHistory h = healthy();
    h.acknowledged("w1", "k/3", 11);
    assertThat(HistoryChecks.revisionsOnlyGrow(h.snapshot(FINAL)).detail())
        .contains("w1: write @11 then write @11");
  }

  @Test
  void aDuplicateAMissedAndAnOutOfOrderEventAreEachNamed() {
    ChaosHistory h = new ChaosHistory(10);
    h.delivered("k/1", 11);
    h.delivered("k/1", 11);
    h.delivered("k/0", 10);
    Check c = HistoryChecks.watchExactlyOnce(h.snapshot(FINAL));
    assertThat(c.held()).isFalse();
    assertThat(c.detail()).contains("duplicate k/1@11", "out of order k/0@10 after @11",
        "missed k/2@12");
  }

  @Test
  void anInterruptedWatchHoldsWhenItResumedWithoutGapsAndFailsWhenItDidNot() {
    ChaosHistory resumed = healthy();
    resumed.watchInterrupted("Connection closed after GOAWAY");
    Check held = HistoryChecks.watchExactlyOnce(resumed.snapshot(FINAL));
    assertThat(held.held()).isTrue();
    assertThat(held.detail()).contains("resumed after 1 interruptions");

    ChaosHistory stopped = new ChaosHistory(10);
    stopped.delivered("k/0", 10);
    stopped.watchInterrupted("required revision has been compacted");
    Check failed = HistoryChecks.watchExactlyOnce(stopped.snapshot(FINAL));
    assertThat(failed.held()).isFalse();
    assertThat(failed.detail()).contains("missed k/1@11", "missed k/2@12", "compacted");
  }

  @Test
  void aSecondClusterIdFails() {
    ChaosHistory h = healthy();
    h.clusterId(0xdefL);
    Check c = HistoryChecks.oneClusterId(h.snapshot(FINAL));
    assertThat(c.held()).isFalse();
    assertThat(c.detail()).contains("abc", "def");
  }

  @Test
  void aFourthVoterOrASecondLearnerBreaksTheMemberBound() {
    ChaosHistory h = healthy();
    h.membership(4, 0);
    assertThat(HistoryChecks.memberCountBound(h.snapshot(FINAL), 3).held()).isFalse();
    ChaosHistory learners = healthy();
    learners.membership(5, 2);
    assertThat(HistoryChecks.memberCountBound(learners.snapshot(FINAL), 3).detail())
        .contains("5 with 2 learners");
  }
}
