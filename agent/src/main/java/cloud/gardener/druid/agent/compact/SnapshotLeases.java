package cloud.gardener.druid.agent.compact;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
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

  private static final int MAX_ATTEMPTS = 5;

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

  /**
   * Reads and updates the lease (the Etcd's Role grants {@code get} and {@code update} on its
   * leases by name, nothing else); a concurrent renewal by a member is a conflict, read again.
   */
  private void update(String name, long revision, boolean always) {
    for (int attempt = 1; ; attempt++) {
      Lease lease = kubernetes.leases().inNamespace(namespace).withName(name).get();
      if (lease == null) {
        throw new IllegalStateException("lease " + namespace + "/" + name + " does not exist");
      }
      if (!always && holderRevision(lease).orElse(-1) >= revision) {
        return;
      }
      if (lease.getSpec() == null) {
        lease.setSpec(new LeaseSpec());
      }
      lease.getSpec().setHolderIdentity(Long.toString(revision));
      lease.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
      try {
        kubernetes.leases().inNamespace(namespace).resource(lease).update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == MAX_ATTEMPTS) {
          throw e;
        }
      }
    }
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
