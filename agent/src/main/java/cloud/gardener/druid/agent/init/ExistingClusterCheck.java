package cloud.gardener.druid.agent.init;

import cloud.gardener.druid.agent.config.ExistingCluster;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.api.agent.MemberStatus;
import io.etcd.jetcd.cluster.Member;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What must hold before the first member of this Etcd is added to an existing cluster: the
 * cluster runs this member's etcd minor (etcd adds no member of another minor safely, and the
 * join is upstream's "same minor" rule), and every source member the spec names is in its
 * membership with the peer URLs the spec gives. Members joining later find a member of this
 * Etcd in the cluster and are not checked again (after the source members were retired the
 * spec's names are gone on purpose).
 */
final class ExistingClusterCheck {

  private static final Pattern MINOR = Pattern.compile("^3\\.(\\d+)\\.");

  private final MemberConfig member;
  private final int ownMinor;

  ExistingClusterCheck(MemberConfig member, int ownMinor) {
    this.member = member;
    this.ownMinor = ownMinor;
  }

  /** Throws, naming what does not match, when the cluster may not be joined. */
  void check(MemberClient cluster) throws IOException, EtcdException {
    List<Member> members = cluster.members();
    boolean oursJoined = members.stream().anyMatch(m -> !m.getName().equals(member.name())
        && member.initialCluster().containsKey(m.getName()));
    if (oursJoined) {
      return;
    }
    checkVersion(cluster);
    checkMembers(members);
  }

  private void checkVersion(MemberClient cluster) throws IOException, EtcdException {
    MemberStatus status = cluster.status();
    for (String version : new String[] {status.etcdVersion(), status.clusterVersion()}) {
      Optional<Integer> minor = minor(version);
      if (minor.isPresent() && minor.get() != ownMinor) {
        throw new IOException("etcd version mismatch: the existing cluster (" + cluster.endpoint()
            + ") runs etcd " + version + ", this member etcd 3." + ownMinor + ": joining needs"
            + " the same minor on both sides; set spec.etcd.version to 3." + minor.get()
            + " (no member was added)");
      }
    }
  }

  private void checkMembers(List<Member> members) throws IOException {
    ExistingCluster source = member.existingCluster();
    for (Map.Entry<String, List<URI>> named : source.members().entrySet()) {
      Optional<Member> found = members.stream()
          .filter(m -> m.getName().equals(named.getKey())).findFirst();
      if (found.isEmpty()) {
        throw new IOException("spec.etcd.bootstrapWithExistingCluster.members: the existing"
            + " cluster has no member " + named.getKey() + " (its members: "
            + members.stream().map(Member::getName).toList() + "; no member was added)");
      }
      List<URI> missing = named.getValue().stream()
          .filter(u -> !found.get().getPeerURIs().contains(u)).toList();
      if (!missing.isEmpty()) {
        throw new IOException("spec.etcd.bootstrapWithExistingCluster.members: member "
            + named.getKey() + " does not advertise " + missing + " (it advertises "
            + found.get().getPeerURIs() + "; no member was added)");
      }
    }
  }

  private static Optional<Integer> minor(String version) {
    if (version == null) {
      return Optional.empty();
    }
    Matcher m = MINOR.matcher(version);
    return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }
}
