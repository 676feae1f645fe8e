package cloud.gardener.druid.agent.compact;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.OptionalLong;

/**
 * After a compaction, the snapshot leases say what the store now holds, as upstream's
 * compactor renews them: the full-snapshot lease names the compacted snapshot's revision, and
 * the delta-snapshot lease never names an older revision than that (the members' newer
 * deltas keep theirs). The operator reads the difference as the events to compact next.
 */
final class SnapshotLeases {

  private final KubernetesClient kubernetes;
  private final String namespace;

  SnapshotLeases(KubernetesClient kubernetes, String namespace) {
    this.kubernetes = kubernetes;
    this.namespace = namespace;
  }

  void compacted(String fullLease, String deltaLease, long revision) {
    update(fullLease, revision, true);
    update(deltaLease, revision, false);
  }

  private void update(String name, long revision, boolean always) {
    kubernetes.leases().inNamespace(namespace).withName(name).edit(lease -> {
      if (lease.getSpec() == null) {
        lease.setSpec(new io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec());
      }
      if (always || holderRevision(lease).orElse(-1) < revision) {
        lease.getSpec().setHolderIdentity(Long.toString(revision));
        lease.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
      }
      return lease;
    });
  }

  static OptionalLong holderRevision(Lease lease) {
    String holder = lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    try {
      return holder == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(holder));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
