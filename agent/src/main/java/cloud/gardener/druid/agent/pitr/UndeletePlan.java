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

    /** Dispatches on the action's type: a new type without a handler does not compile. */
    <R> R accept(Handler<R> handler);

    /** One method per action type. */
    interface Handler<R> {
      R write(Write w);

      R skip(Skip s);

      R unchanged(Unchanged u);

      R leaveAlone(LeaveAlone l);

      R remove(Remove r);
    }

    /** Absent now: written back, guarded so that a key created meanwhile is not overwritten. */
    record Write(String key, byte[] value) implements KeyAction {
      @Override
      public <R> R accept(Handler<R> handler) {
        return handler.write(this);
      }
    }

    /** Present with another value than at R: reported, left as it is. */
    record Skip(String key, String reason) implements KeyAction {
      @Override
      public <R> R accept(Handler<R> handler) {
        return handler.skip(this);
      }
    }

    /** Present with the value it had at R. */
    record Unchanged(String key) implements KeyAction {
      @Override
      public <R> R accept(Handler<R> handler) {
        return handler.unchanged(this);
      }
    }

    /** Created after R; left alone. */
    record LeaveAlone(String key, long modRevision) implements KeyAction {
      @Override
      public <R> R accept(Handler<R> handler) {
        return handler.leaveAlone(this);
      }
    }

    /** Created after R and removal asked for: deleted unless modified since it was read. */
    record Remove(String key, long modRevision) implements KeyAction {
      @Override
      public <R> R accept(Handler<R> handler) {
        return handler.remove(this);
      }
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
