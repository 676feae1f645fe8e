package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.kv.TxnResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Replays delta events into a (temporary) etcd, one transaction per original revision, so
 * that every revision lands at the same number it had. Revisions the database already holds
 * are skipped; a revision that does not follow the previous one is a gap and stops the
 * restore.
 */
final class DeltaApplier {

  private final MemberClient etcd;
  private long revision;

  DeltaApplier(MemberClient etcd) throws EtcdException {
    this.etcd = etcd;
    this.revision = etcd.revision();
  }

  long revision() {
    return revision;
  }

  void apply(List<DeltaEvent> events, String source) throws RestoreException {
    int i = 0;
    while (i < events.size()) {
      long eventRevision = events.get(i).modRevision();
      int end = i;
      while (end < events.size() && events.get(end).modRevision() == eventRevision) {
        end++;
      }
      if (eventRevision > revision) {
        if (eventRevision != revision + 1) {
          throw new RestoreException("missing revisions " + (revision + 1) + ".."
              + (eventRevision - 1) + " before " + source + "; the data directory was left unchanged");
        }
        commit(events.subList(i, end), eventRevision, source);
      }
      i = end;
    }
  }

  private void commit(List<DeltaEvent> group, long expected, String source)
      throws RestoreException {
    List<Op> ops = new ArrayList<>(group.size());
    for (DeltaEvent e : group) {
      ByteSequence key = ByteSequence.from(e.key());
      ops.add(e.isDelete() ? Op.delete(key, DeleteOption.DEFAULT)
          : Op.put(key, ByteSequence.from(e.value()), PutOption.DEFAULT));
    }
    TxnResponse response;
    try {
      response = etcd.client().getKVClient().txn().Then(ops.toArray(Op[]::new)).commit()
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new RestoreException("cannot replay revision " + expected + " of " + source
          + " into the temporary etcd: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RestoreException("interrupted while replaying " + source, e);
    }
    long got = response.getHeader().getRevision();
    if (got != expected) {
      throw new RestoreException("replaying " + source + " produced revision " + got
          + " instead of " + expected + " (a delete of a missing key? the snapshots do not"
          + " fit together); the data directory was left unchanged");
    }
    revision = got;
  }
}
