package cloud.gardener.druid.agent.verify;

import cloud.gardener.druid.agent.restore.RestorePlan;
import cloud.gardener.druid.agent.snapshot.Compressions;
import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.snapshot.SnapshotIntegrityException;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotChain;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.api.verify.DrillReport.Reason;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipException;

/**
 * The chain a drill restores, checked piece by piece before anything is restored: the newest
 * full snapshot, the deltas after it without a gap (a gap names the delta after it), and every
 * delta read whole (checksum, decompression, events within the revisions its name gives).
 */
final class DrillChain {

  private DrillChain() {
  }

  /** The newest full snapshot and its deltas; empty when the store holds no full snapshot. */
  static Optional<RestorePlan> of(List<Snapshot> listed) throws DrillFailure {
    Optional<SnapshotChain> chain = SnapshotChain.of(listed);
    if (chain.isEmpty()) {
      return Optional.empty();
    }
    if (chain.get().gap().isPresent()) {
      SnapshotChain.Gap gap = chain.get().gap().get();
      throw new DrillFailure(gap.next().fileName(), Reason.MISSING_DELTA,
          gap.describe(), null);
    }
    return Optional.of(new RestorePlan(chain.get().full(), chain.get().deltas()));
  }

  /** Reads every delta of {@code plan} whole; the first that does not read names itself. */
  static void readDeltas(SnapshotStore store, RestorePlan plan) throws DrillFailure {
    for (Snapshot delta : plan.deltas()) {
      List<DeltaEvent> events = read(store, delta);
      for (DeltaEvent event : events) {
        if (event.modRevision() < delta.startRevision()
            || event.modRevision() > delta.endRevision()) {
          throw new DrillFailure(delta.fileName(), Reason.DECODE, "delta " + delta.fileName()
              + " holds an event of revision " + event.modRevision() + ", outside the "
              + "revisions its name gives", null);
        }
      }
    }
  }

  private static List<DeltaEvent> read(SnapshotStore store, Snapshot delta)
      throws DrillFailure {
    try (InputStream raw = store.open(delta);
        InputStream in = Compressions.decompress(delta, raw)) {
      return DeltaFormat.read(in, "delta " + delta.fileName());
    } catch (ZipException | EOFException e) {
      throw new DrillFailure(delta.fileName(), Reason.DECODE, "delta " + delta.fileName()
          + " does not decompress: " + e.getMessage(), e);
    } catch (SnapshotIntegrityException e) {
      throw integrity(delta.fileName(), e);
    } catch (IOException e) {
      throw new DrillFailure(delta.fileName(), Reason.RESTORE_FAILED, "cannot read delta "
          + delta.fileName() + ": " + e.getMessage(), e);
    }
  }

  /** A checksum failure or an unreadable piece, as the integrity check said. */
  static DrillFailure integrity(String object, SnapshotIntegrityException e) {
    Reason reason = e.getMessage() != null && e.getMessage().contains("SHA-256")
        ? Reason.CHECKSUM : Reason.DECODE;
    return new DrillFailure(object, reason, e.getMessage(), e);
  }
}
