package cloud.gardener.druid.agent.copy;

import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.StoreException;
import cloud.gardener.druid.agent.store.StoreIdentity;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whose backups a copy may read, by the source prefix's identity marker: a prefix without one
 * (etcd-backup-restore's, or older agents') or one naming an Etcd of the task's namespace;
 * an Etcd of another namespace only when the task names exactly that Etcd
 * ({@code --source-etcd}). A named Etcd must be the one the marker names.
 */
public record SourceOwner(Optional<String> taskNamespace, Optional<StoreIdentity> namedSource) {

  private static final Logger LOG = LoggerFactory.getLogger(SourceOwner.class);

  /** Parses {@code --source-etcd}'s {@code namespace/name}. */
  public static StoreIdentity parseEtcd(String text) {
    String[] parts = text.split("/", -1);
    if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
      throw new IllegalArgumentException("--source-etcd must be <namespace>/<name>, not '"
          + text + "'");
    }
    return new StoreIdentity(parts[0], parts[1]);
  }

  /** Throws when the source's marker names an Etcd this copy may not read. */
  public void check(SnapshotStore source) throws IOException {
    Optional<StoreIdentity> marker = source.readIdentity();
    if (marker.isEmpty()) {
      return;
    }
    StoreIdentity owner = marker.get();
    if (namedSource.isPresent()) {
      if (!namedSource.get().equals(owner)) {
        throw refused(source, owner, "not to the named --source-etcd "
            + namedSource.get().describe());
      }
      return;
    }
    if (taskNamespace.isEmpty()) {
      LOG.warn("the backups in {} belong to Etcd {}; the task's namespace is unknown "
          + "(--namespace, $POD_NAMESPACE), so it is not checked", source.location(),
          owner.describe());
      return;
    }
    if (!owner.namespace().equals(taskNamespace.get())) {
      throw refused(source, owner, "an Etcd of another namespace than the task's ("
          + taskNamespace.get() + "); name it with --source-etcd to copy it");
    }
  }

  private static StoreException refused(SnapshotStore source, StoreIdentity owner,
      String why) {
    return new StoreException("the backups in " + source.location() + " belong to Etcd "
        + owner.describe() + " (" + StoreIdentity.OBJECT_NAME + "), " + why, null);
  }
}
