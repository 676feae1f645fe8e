package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the newest full snapshot in step with etcd's auth store. etcd's users, roles, passwords
 * and whether authentication is on live in its auth store, which a full snapshot carries and a
 * delta snapshot (watch events of keys) does not: a restore brings back the auth store of its
 * full snapshot, and a password changed after it would lock the restored members' agents out.
 * etcd raises its auth revision with every change of the auth store; the leader's agent
 * compares it with the one recorded at the newest full snapshot and asks for a full snapshot
 * when it moved. The recorded revision is kept next to the snapshots ({@value #OBJECT_NAME}),
 * so that the next leader continues the comparison.
 */
final class AuthStoreTracker {

  static final String OBJECT_NAME = "druid-auth-revision.json";
  /** The revision etcd gives its auth store when it creates it. */
  static final long NEVER_CHANGED = 1;
  private static final Logger LOG = LoggerFactory.getLogger(AuthStoreTracker.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The marker: etcd's auth revision when {@code snapshot} (a full snapshot) was taken. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Marker(String snapshot, long authRevision) {
  }

  /** Reads etcd's auth revision ({@link MemberClient#authRevision}). */
  @FunctionalInterface
  interface AuthRevision {
    long read() throws EtcdException;
  }

  private final AuthRevision etcd;
  private final SnapshotStore store;
  private OptionalLong atNewestFull = OptionalLong.empty();

  AuthStoreTracker(AuthRevision etcd, SnapshotStore store) {
    this.etcd = etcd;
    this.store = store;
  }

  /** etcd's auth revision now; empty when etcd does not tell it (then nothing is decided). */
  OptionalLong current() {
    try {
      return OptionalLong.of(etcd.read());
    } catch (EtcdException e) {
      LOG.debug("cannot read etcd's auth revision: {}", e.getMessage());
      return OptionalLong.empty();
    }
  }

  /** On becoming the writer: the revision recorded with {@code newestFull}, if any. */
  void resume(Snapshot newestFull) {
    atNewestFull = OptionalLong.empty();
    try {
      Optional<byte[]> marker = store.readMarker(OBJECT_NAME);
      if (marker.isPresent()) {
        Marker m = JSON.readValue(marker.get(), Marker.class);
        if (newestFull.fileName().equals(m.snapshot())) {
          atNewestFull = OptionalLong.of(m.authRevision());
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot read {}: {}", OBJECT_NAME, e.getMessage());
    }
  }

  /** Records {@code authRevision}, read before {@code full} was taken. */
  void written(Snapshot full, OptionalLong authRevision) {
    atNewestFull = authRevision;
    if (authRevision.isEmpty()) {
      return;
    }
    try {
      store.writeMarker(OBJECT_NAME, JSON.writeValueAsBytes(
          new Marker(full.fileName(), authRevision.getAsLong())));
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot record etcd's auth revision in {}: {}", OBJECT_NAME, e.getMessage());
    }
  }

  /**
   * Why the newest full snapshot does not hold etcd's auth store as it is now; empty when it
   * does, or when that cannot be told (etcd not answering). An auth store never changed
   * (etcd creates it at revision 1) needs no full snapshot for it.
   */
  Optional<String> fullSnapshotDue() {
    OptionalLong now = current();
    if (now.isEmpty()) {
      return Optional.empty();
    }
    long current = now.getAsLong();
    if (atNewestFull.isEmpty()) {
      if (current <= NEVER_CHANGED) {
        atNewestFull = now;
        return Optional.empty();
      }
      return Optional.of("the newest full snapshot is not known to hold etcd's users and roles"
          + " (auth revision " + current + ")");
    }
    if (current != atNewestFull.getAsLong()) {
      return Optional.of("etcd's users, roles or passwords changed since the newest full"
          + " snapshot (auth revision " + atNewestFull.getAsLong() + ", now " + current + ")");
    }
    return Optional.empty();
  }
}
