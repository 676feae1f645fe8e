package cloud.gardener.druid.agent.pitr;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.pitr.UndeletePlan.KeyAction;
import cloud.gardener.druid.agent.pitr.UndeletePlan.LiveKey;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UndeletePlanTest {

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void onlyAbsentKeysAreWrittenAChangedKeyIsReportedANewKeyLeftAlone() {
    Map<String, byte[]> atR = Map.of("/a/deleted", b("1"), "/a/same", b("2"),
        "/a/changed", b("3"));
    Map<String, LiveKey> live = Map.of("/a/same", new LiveKey(b("2"), 40),
        "/a/changed", new LiveKey(b("new"), 41), "/a/created", new LiveKey(b("x"), 42));

    List<KeyAction> actions = UndeletePlan.of(atR, live, false);

    assertThat(actions).extracting(KeyAction::key)
        .containsExactly("/a/changed", "/a/created", "/a/deleted", "/a/same");
    assertThat(actions.get(0)).isEqualTo(new KeyAction.Skip("/a/changed",
        "changed since it was deleted (modified at revision 41)"));
    assertThat(actions.get(1)).isEqualTo(new KeyAction.LeaveAlone("/a/created", 42));
    assertThat(actions.get(2)).isInstanceOf(KeyAction.Write.class);
    assertThat(((KeyAction.Write) actions.get(2)).value()).isEqualTo(b("1"));
    assertThat(actions.get(3)).isEqualTo(new KeyAction.Unchanged("/a/same"));
  }

  @Test
  void keysCreatedAfterRAreRemovedOnlyWhenAskedGuardedByTheirRevision() {
    List<KeyAction> actions = UndeletePlan.of(Map.of(),
        Map.of("/a/created", new LiveKey(b("x"), 42)), true);
    assertThat(actions).containsExactly(new KeyAction.Remove("/a/created", 42));
  }
}
