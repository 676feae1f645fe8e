package cloud.gardener.druid.agent.init;

import cloud.gardener.druid.agent.etcd.ClusterState;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How etcd is to start after initialisation: in which cluster, in which state, and what
 * initialisation did to the data directory.
 */
public record StartPlan(ClusterState state, Map<String, List<URI>> cluster, Outcome outcome) {

  /** A plan whose members each have one peer URL. */
  public static StartPlan of(ClusterState state, Map<String, URI> cluster, Outcome outcome) {
    Map<String, List<URI>> lists = new LinkedHashMap<>();
    cluster.forEach((name, url) -> lists.put(name, List.of(url)));
    return new StartPlan(state, lists, outcome);
  }

  public enum Outcome {
    /** The data directory was valid and is used as it is. */
    VALID_DATA,
    /** Restored from the newest full snapshot and the deltas after it. */
    RESTORED,
    /** No data and no backup: a new cluster (or this member's first start in it). */
    NEW_MEMBER,
    /** Data wiped; joins the running cluster as a learner, to be promoted once in sync. */
    JOINED_AS_LEARNER
  }
}
