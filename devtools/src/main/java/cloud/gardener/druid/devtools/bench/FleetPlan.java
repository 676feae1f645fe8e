package cloud.gardener.druid.devtools.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * Which Etcds the benchmark creates: {@code etcds} in all, of which {@code triple} have 3
 * members, {@code single} have 1, and the rest are hibernated ({@code replicas: 0}).
 */
record FleetPlan(int etcds, int single, int triple) {

  /** One Etcd to create. */
  record Member(String name, int replicas) {
  }

  FleetPlan {
    if (etcds < 1) {
      throw new IllegalArgumentException("--etcds must be at least 1, was " + etcds);
    }
    if (single < 0 || triple < 0) {
      throw new IllegalArgumentException("--single and --triple must not be negative");
    }
    if (single + triple > etcds) {
      throw new IllegalArgumentException("--single (" + single + ") + --triple (" + triple
          + ") exceed --etcds (" + etcds + ")");
    }
  }

  @JsonProperty
  int hibernated() {
    return etcds - single - triple;
  }

  /** Running members (pods) in all. */
  @JsonProperty
  int members() {
    return single + 3 * triple;
  }

  List<Member> etcdsToCreate() {
    List<Member> all = new ArrayList<>();
    for (int i = 0; i < triple; i++) {
      all.add(new Member(String.format("triple-%03d", i), 3));
    }
    for (int i = 0; i < single; i++) {
      all.add(new Member(String.format("single-%03d", i), 1));
    }
    for (int i = 0; i < hibernated(); i++) {
      all.add(new Member(String.format("idle-%04d", i), 0));
    }
    return all;
  }
}
