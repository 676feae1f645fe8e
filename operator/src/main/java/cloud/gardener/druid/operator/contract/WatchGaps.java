package cloud.gardener.druid.operator.contract;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a recording's watches have seen, so that watches resumed from a fresh list (after an
 * API server restart answers the old resourceVersion with 410 Gone) know what they missed.
 * A kind's watch delivers its changes in resourceVersion order, so whatever it missed lies
 * after the last version it delivered and at or before the list's version: a gap.
 *
 * <p>The rollout invariant is judged at each Etcd version against the member pods as they
 * were then. A gap in the Etcd's own history may hide a version the invariant is not judged
 * at. A gap in the pods' history hides only intermediate pod versions (the relisted
 * ones are recorded at their own resourceVersion), and those matter only if an Etcd version
 * lies inside the gap: otherwise every Etcd version meets the pods exactly as they were.
 */
final class WatchGaps {

  /** Changes of {@code kind} seen only by a relist, all within {@code (after, upTo]}. */
  record Gap(String kind, BigInteger after, BigInteger upTo, int changes) {
  }

  private final Map<String, BigInteger> lastSeen = new HashMap<>();
  private final Map<String, BigInteger> delivered = new HashMap<>();
  private final List<Gap> gaps = new ArrayList<>();
  private int resumptions;

  void seen(String kind, String action, HasMetadata object) {
    String key = kind + "/" + object.getMetadata().getName();
    BigInteger version = new BigInteger(object.getMetadata().getResourceVersion());
    delivered.merge(kind, version, BigInteger::max);
    if (action.equals("DELETED")) {
      lastSeen.remove(key);
    } else {
      lastSeen.put(key, version);
    }
  }

  /** What a relist of one kind found that its watch had not delivered. */
  record Relisted(List<HasMetadata> changed, List<String> gone) {
  }

  /**
   * Compares a fresh list of {@code kind} (at {@code listVersion}) with what was seen: the
   * listed objects whose version was not seen, and the names of those that went unseen.
   */
  Relisted relisted(String kind, List<? extends HasMetadata> listed, BigInteger listVersion) {
    Set<String> present = new HashSet<>();
    List<HasMetadata> changed = new ArrayList<>();
    for (HasMetadata o : listed) {
      String key = kind + "/" + o.getMetadata().getName();
      present.add(key);
      BigInteger seen = lastSeen.get(key);
      if (seen == null || new BigInteger(o.getMetadata().getResourceVersion()).compareTo(seen) > 0) {
        changed.add(o);
      }
    }
    // one seen after the list was taken (the old watch delivers until then) did not go
    List<String> gone = lastSeen.entrySet().stream()
        .filter(e -> e.getKey().startsWith(kind + "/") && !present.contains(e.getKey())
            && e.getValue().compareTo(listVersion) <= 0).map(Map.Entry::getKey).toList();
    if (!changed.isEmpty() || !gone.isEmpty()) {
      gaps.add(new Gap(kind, delivered.getOrDefault(kind, BigInteger.ZERO), listVersion,
          changed.size() + gone.size()));
    }
    return new Relisted(changed, gone.stream().map(k -> k.substring(kind.length() + 1))
        .toList());
  }

  void resumed() {
    resumptions++;
  }

  int resumptions() {
    return resumptions;
  }

  List<Gap> gaps() {
    return List.copyOf(gaps);
  }

  /** The gaps that may hide an unjudged Etcd version, given the Etcd versions recorded. */
  List<String> incomplete(List<BigInteger> etcdVersions) {
    List<String> found = new ArrayList<>();
    for (Gap g : gaps) {
      boolean etcdInside = g.kind().equals("Etcd") || etcdVersions.stream()
          .anyMatch(v -> v.compareTo(g.after()) > 0 && v.compareTo(g.upTo()) <= 0);
      if (etcdInside) {
        found.add(g.changes() + " " + g.kind() + " changes unseen between rv " + g.after()
            + " and " + g.upTo() + (g.kind().equals("Etcd") ? "" : ", while the Etcd changed")
            + ": not observed");
      }
    }
    return found;
  }
}
