package cloud.gardener.druid.agent.compact;

import cloud.gardener.druid.agent.lease.LeaseClient;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.OptionalLong;

/**
 * After a compaction, the snapshot leases say what the store now holds, as upstream's
 * compactor renews them: the full-snapshot lease names the compacted snapshot's revision, and
 * the delta-snapshot lease never names an older revision than that (the members' newer
 * deltas keep theirs). The operator reads the difference as the events to compact next.
 * Read and updated (the Etcd's Role grants {@code get} and {@code update} on its leases by
 * name, nothing else) by the members' {@link LeaseClient}; a concurrent renewal by a member is
 * a conflict, read again.
 */
final class SnapshotLeases {

  private static final int ATTEMPTS = 5;

  private final LeaseClient leases;
  private final String namespace;

  SnapshotLeases(LeaseClient leases, String namespace) {
    this.leases = leases;
    this.namespace = namespace;
  }

  void compacted(String fullLease, String deltaLease, long revision) {
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    String holder = Long.toString(revision);
    check(fullLease, leases.renewIf(namespace, fullLease, lease -> true, holder, now, ATTEMPTS));
    check(deltaLease, leases.renewIf(namespace, deltaLease,
        lease -> holderRevision(lease).orElse(-1) < revision, holder, now, ATTEMPTS));
  }

  private void check(String name, LeaseClient.Outcome outcome) {
    String lease = "lease " + namespace + "/" + name;
    if (outcome instanceof LeaseClient.Outcome.Missing) {
      throw new IllegalStateException(lease + " does not exist");
    }
    if (outcome instanceof LeaseClient.Outcome.Conflict) {
      throw new IllegalStateException(lease + " was updated concurrently " + ATTEMPTS
          + " times in a row");
    }
    if (outcome instanceof LeaseClient.Outcome.Rejected rejected) {
      throw new IllegalStateException("cannot update " + lease + ": HTTP " + rejected.code()
          + " " + rejected.reason());
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
