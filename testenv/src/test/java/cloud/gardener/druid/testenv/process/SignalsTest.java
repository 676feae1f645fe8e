package cloud.gardener.druid.testenv.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SignalsTest {

  @Test
  void commandNamesWithSpacesAndParenthesesParse() {
    assertThat(Signals.Stat.parse("12 (a (b) c) S 7 12 12 0"))
        .hasValue(new Signals.Stat("a (b) c", "S", 7));
    assertThat(Signals.Stat.parse("garbage")).isEmpty();
  }

  @Test
  void aGoneProcessIsNotSignalledAndHasNoState() {
    long gone = ProcessHandle.current().pid() + 4_000_000; // above pid_max
    assertThat(Signals.send(gone, Signals.Signal.CONT)).isFalse();
    assertThat(Signals.state(gone)).isEmpty();
    assertThat(Signals.running(gone)).isFalse();
  }

  @Test
  void aLiveProcessRunsAndAKilledOneNoLonger() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "30").start();
    assertThat(Signals.running(sleep.pid())).isTrue();
    assertThat(Signals.send(sleep.pid(), Signals.Signal.KILL)).isTrue();
    sleep.waitFor();
    assertThat(Signals.running(sleep.pid())).isFalse();
  }
}
