package cloud.gardener.druid.agent.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A running etcd cluster this member joins instead of bootstrapping one (the Etcd's
 * {@code spec.etcd.bootstrapWithExistingCluster}): its members as the spec names them, and the
 * client endpoints through which this member is added. Empty when the Etcd does not join.
 *
 * @param members the source members by name, each with its peer URLs as the source advertises them
 * @param clientEndpoints the source's client endpoints, reachable from this member
 */
public record ExistingCluster(Map<String, List<URI>> members, List<URI> clientEndpoints) {

  public ExistingCluster {
    members = Map.copyOf(members);
    clientEndpoints = List.copyOf(clientEndpoints);
  }

  public static ExistingCluster none() {
    return new ExistingCluster(Map.of(), List.of());
  }

  public boolean joins() {
    return !clientEndpoints.isEmpty();
  }

  /**
   * Parses {@code name=peerUrl,...} (a name repeated for each of its URLs, as etcd's
   * {@code --initial-cluster}) and {@code url,...}; both absent or both present.
   */
  public static ExistingCluster parse(String members, String endpoints) {
    if (members == null && endpoints == null) {
      return none();
    }
    if (members == null || endpoints == null || members.isBlank() || endpoints.isBlank()) {
      throw new IllegalArgumentException("--existing-cluster-members and"
          + " --existing-cluster-endpoints go together");
    }
    Map<String, List<URI>> byName = new LinkedHashMap<>();
    for (String entry : members.split(",")) {
      String[] parts = entry.split("=", 2);
      if (parts.length != 2 || parts[0].isBlank()) {
        throw new IllegalArgumentException("--existing-cluster-members: expected NAME=PEER_URL,"
            + " not " + entry);
      }
      byName.computeIfAbsent(parts[0].trim(), n -> new ArrayList<>())
          .add(url("--existing-cluster-members", parts[1]));
    }
    List<URI> urls = new ArrayList<>();
    for (String endpoint : endpoints.split(",")) {
      urls.add(url("--existing-cluster-endpoints", endpoint));
    }
    return new ExistingCluster(byName, urls);
  }

  private static URI url(String option, String value) {
    URI uri = URI.create(value.trim());
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
        || uri.getHost() == null) {
      throw new IllegalArgumentException(option + ": " + value + " is not an http(s) URL");
    }
    return uri;
  }
}
