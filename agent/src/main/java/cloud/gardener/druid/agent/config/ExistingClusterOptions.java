package cloud.gardener.druid.agent.config;

import picocli.CommandLine.Option;

/**
 * The options of {@code druid agent} for joining a running cluster (the Etcd's
 * {@code spec.etcd.bootstrapWithExistingCluster}), a picocli mixin.
 */
public final class ExistingClusterOptions {

  @Option(names = "--existing-cluster-members", paramLabel = "NAME=PEER_URL[,...]",
      description = "Members of the running cluster this member joins (a name repeated for"
          + " each of its peer URLs); checked before the first member of this Etcd is added.")
  private String members;

  @Option(names = "--existing-cluster-endpoints", paramLabel = "URL[,...]",
      description = "Client endpoints of the running cluster this member joins. With it the"
          + " member never bootstraps a cluster and never restores: it joins as a learner.")
  private String endpoints;

  public ExistingCluster existingCluster() {
    return ExistingCluster.parse(members, endpoints);
  }
}
