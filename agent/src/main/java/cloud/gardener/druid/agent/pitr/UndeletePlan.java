package cloud.gardener.druid.agent.pitr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What an undelete does with each key under the prefix, decided from the keys as they were at
 * revision R and as the live cluster holds them now (pure). Only an absent key is written
 * back; a key the live cluster holds with another value changed (or was re-created) after R
 * and is reported, not overwritten.
 */
public final class UndeletePlan {

  /** A live key: its value and the revision it was last modified at (the guard). */
  public record LiveKey(byte[] value, long modRevision) {
  }

  /** What is done with one key. */
  public sealed interface KeyAction {
    String key();

    /** Absent now: written back, guarded so that a key created meanwhile is not overwritten. */
    record Write(String key, byte[] value) implements KeyAction {
    }

    /** Present with another value than at R: reported, left as it is. */
    record Skip(String key, String reason) implements KeyAction {
    }

    /** Present with the value it had at R. */
    record Unchanged(String key) implements KeyAction {
    }

    /** Created after R; left alone. */
    record LeaveAlone(String key, long modRevision) implements KeyAction {
    }

    /** Created after R and removal asked for: deleted unless modified since it was read. */
    record Remove(String key, long modRevision) implements KeyAction {
    }
  }

  private UndeletePlan() {
  }

  /**
   * One action per key of either map, in key order. {@code atRevision} and {@code live}: keys
   * as UTF-8 strings (etcd's keys as Kubernetes and most users write them).
   */
  public static List<KeyAction> of(Map<String, byte[]> atRevision, Map<String, LiveKey> live,
      boolean removeCreatedAfter) {
    SortedMap<String, KeyAction> actions = new TreeMap<>();
    atRevision.forEach((key, value) -> {
      LiveKey now = live.get(key);
      actions.put(key, now == null ? new KeyAction.Write(key, value)
          : Arrays.equals(now.value(), value) ? new KeyAction.Unchanged(key)
          : new KeyAction.Skip(key, "changed since it was deleted (modified at revision "
              + now.modRevision() + ")"));
    });
    live.forEach((key, now) -> {
      if (!atRevision.containsKey(key)) {
        actions.put(key, removeCreatedAfter ? new KeyAction.Remove(key, now.modRevision())
            : new KeyAction.LeaveAlone(key, now.modRevision()));
      }
    });
    return new ArrayList<>(actions.values());
  }
}
