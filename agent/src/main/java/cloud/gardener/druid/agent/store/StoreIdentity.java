package cloud.gardener.druid.agent.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The marker naming the Etcd ({@code namespace/name}) whose backups a store prefix holds,
 * stored next to the snapshots as {@value #OBJECT_NAME} (upstream ignores objects whose names
 * are not snapshot names). It is written before the first snapshot into an empty prefix; a
 * prefix without it (backups of etcd-backup-restore, or of agents before the marker existed)
 * belongs to nobody in particular and is restored as before.
 */
public record StoreIdentity(String namespace, String etcd) {

  public static final String OBJECT_NAME = "druid-identity.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Whose backups a store holds, as seen by one Etcd. */
  public enum Owner { SELF, NOBODY, OTHER }

  public static StoreIdentity parse(byte[] json) throws IOException {
    StoreIdentity identity = JSON.readValue(json, StoreIdentity.class);
    if (identity.namespace() == null || identity.etcd() == null) {
      throw new IOException("the store identity marker " + OBJECT_NAME + " is incomplete: "
          + new String(json, StandardCharsets.UTF_8));
    }
    return identity;
  }

  public byte[] toJson() {
    try {
      return JSON.writeValueAsBytes(this);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public String describe() {
    return namespace + "/" + etcd;
  }

  public Owner ownerOf(Optional<StoreIdentity> marker) {
    return marker.isEmpty() ? Owner.NOBODY : marker.get().equals(this) ? Owner.SELF
        : Owner.OTHER;
  }

  /** The message for a store that another Etcd's marker names. */
  public String foreignStoreMessage(SnapshotStore store, StoreIdentity other) {
    return "the backups in " + store.location() + " belong to Etcd " + other.describe()
        + ", not to " + describe() + " (" + OBJECT_NAME + "); two Etcds must not share a "
        + "store prefix: give this one its own spec.backup.store.prefix";
  }
}
