package cloud.gardener.druid.operator.testing;

import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.api.v1alpha1.BootstrapExistingMember;
import cloud.gardener.druid.api.v1alpha1.BootstrapStatus;
import cloud.gardener.druid.api.v1alpha1.BootstrapWithExistingCluster;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import java.util.List;

/** Etcds that join an existing cluster of three members src-0..2, for unit tests. */
public final class JoiningEtcds {

  private JoiningEtcds() {
  }

  public static Etcd joining(String name, int replicas) {
    Etcd etcd = Etcds.etcd(name, replicas);
    BootstrapWithExistingCluster join = new BootstrapWithExistingCluster();
    join.setMembers(List.of(member("src-0"), member("src-1"), member("src-2")));
    join.setClientEndpoints(List.of("http://127.9.0.1:2379"));
    etcd.getSpec().getEtcd().setBootstrapWithExistingCluster(join);
    return etcd;
  }

  /** The same Etcd with the join recorded in its status. */
  public static Etcd joined(String name, int replicas) {
    Etcd etcd = joining(name, replicas);
    BootstrapStatus record = new BootstrapStatus();
    record.setJoinedAt("2026-01-01T00:00:00Z");
    record.setMembers(List.of(recorded("src-0"), recorded("src-1"), recorded("src-2")));
    EtcdStatus status = new EtcdStatus();
    status.setBootstrapWithExistingCluster(record);
    etcd.setStatus(status);
    return etcd;
  }

  /** The source members as every agent of ours lists them. */
  public static List<Membership> sourceMembership() {
    return List.of(new Membership("s0", "src-0", false), new Membership("s1", "src-1", false),
        new Membership("s2", "src-2", false));
  }

  private static BootstrapExistingMember member(String name) {
    BootstrapExistingMember m = new BootstrapExistingMember();
    m.setName(name);
    m.setPeerUrls(List.of("http://" + name + ":2380"));
    return m;
  }

  private static BootstrapStatus.Member recorded(String name) {
    BootstrapStatus.Member m = new BootstrapStatus.Member();
    m.setName(name);
    m.setPeerUrls(List.of("http://" + name + ":2380"));
    return m;
  }
}
