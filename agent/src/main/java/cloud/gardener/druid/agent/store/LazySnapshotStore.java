package cloud.gardener.druid.agent.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A store opened on its first use. A member's agent needs its store only to restore, to
 * compare a single member's data with the newest backup, and while its etcd leads: the
 * followers of a cluster never load a cloud SDK (thousands of classes, its HTTP client and
 * threads), and the agent API answers before any SDK is loaded. An error opening the store
 * (a bad secret) comes with that first use, as the store's own errors do.
 */
public final class LazySnapshotStore implements SnapshotStore {

  private final StoreConfig config;
  private SnapshotStore store;
  private boolean closed;

  public LazySnapshotStore(StoreConfig config) {
    this.config = config;
  }

  private synchronized SnapshotStore store() throws IOException {
    if (closed) {
      throw new IOException("the store " + config.provider() + " " + config.container() + "/"
          + config.prefix() + " is closed");
    }
    if (store == null) {
      store = SnapshotStores.open(config);
    }
    return store;
  }

  /** True once the store was opened (tests, and closing only what was opened). */
  public synchronized boolean isOpen() {
    return store != null;
  }

  @Override
  public List<Snapshot> list() throws IOException {
    return store().list();
  }

  @Override
  public void put(Snapshot snapshot, ContentWriter content) throws IOException {
    store().put(snapshot, content);
  }

  @Override
  public InputStream open(Snapshot snapshot) throws IOException {
    return store().open(snapshot);
  }

  @Override
  public Optional<Path> localFile(Snapshot snapshot) {
    try {
      return store().localFile(snapshot);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public OptionalLong size(Snapshot snapshot) throws IOException {
    return store().size(snapshot);
  }

  @Override
  public void delete(Snapshot snapshot) throws IOException {
    store().delete(snapshot);
  }

  @Override
  public int deleteAbandonedUploads(Instant cutoff) throws IOException {
    return store().deleteAbandonedUploads(cutoff);
  }

  @Override
  public Optional<StoreIdentity> readIdentity() throws IOException {
    return store().readIdentity();
  }

  @Override
  public void writeIdentity(StoreIdentity identity) throws IOException {
    store().writeIdentity(identity);
  }

  @Override
  public Optional<byte[]> readMarker(String name) throws IOException {
    return store().readMarker(name);
  }

  @Override
  public void writeMarker(String name, byte[] content) throws IOException {
    store().writeMarker(name, content);
  }

  @Override
  public String location() {
    try {
      return store().location();
    } catch (IOException | RuntimeException e) {
      return config.provider() + " " + config.container() + "/" + config.prefix();
    }
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    if (store != null) {
      store.close();
    }
  }
}
