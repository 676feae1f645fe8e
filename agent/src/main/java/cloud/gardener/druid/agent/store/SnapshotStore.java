package cloud.gardener.druid.agent.store;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A backup store holding snapshots in the etcd-backup-restore v2 layout. An object that
 * {@link #list()} returns is always complete: {@link #put} makes an object visible only after
 * every byte was written, and never when the content writer fails or the process dies.
 */
public interface SnapshotStore extends Closeable {

  /** Every complete snapshot, in {@link Snapshot#ORDER}. */
  List<Snapshot> list() throws IOException;

  /** Streams the content of a new snapshot; visible atomically once {@code content} returns. */
  void put(Snapshot snapshot, ContentWriter content) throws IOException;

  /** The raw (still compressed) bytes of a snapshot. */
  InputStream open(Snapshot snapshot) throws IOException;

  /**
   * The snapshot as a file on this machine, for tools that read files (etcdutl); empty when
   * the store is remote.
   */
  default Optional<java.nio.file.Path> localFile(Snapshot snapshot) {
    return Optional.empty();
  }

  /** Bytes the snapshot takes in the store (compressed as stored); empty when unknown. */
  default java.util.OptionalLong size(Snapshot snapshot) throws IOException {
    Optional<java.nio.file.Path> file = localFile(snapshot);
    return file.isPresent() ? java.util.OptionalLong.of(java.nio.file.Files.size(file.get()))
        : java.util.OptionalLong.empty();
  }

  void delete(Snapshot snapshot) throws IOException;

  /**
   * Removes what uploads of crashed processes left behind (never listed, but taking space)
   * that started before {@code cutoff}; returns how many.
   */
  int deleteAbandonedUploads(Instant cutoff) throws IOException;

  /** The identity marker next to the snapshots, empty when none was written. */
  Optional<StoreIdentity> readIdentity() throws IOException;

  /** Writes (or replaces) the identity marker; atomically visible. */
  void writeIdentity(StoreIdentity identity) throws IOException;

  /**
   * A small object of ours next to the snapshots (a name that is no snapshot name, so neither
   * {@link Snapshot#parse} nor upstream's listing takes it), e.g. the recorded backup hashes;
   * empty when absent.
   */
  default Optional<byte[]> readMarker(String name) throws IOException {
    throw new UnsupportedOperationException(location() + " holds no markers");
  }

  /** Writes (or replaces) the marker object {@code name}; atomically visible. */
  default void writeMarker(String name, byte[] content) throws IOException {
    throw new UnsupportedOperationException(location() + " holds no markers");
  }

  /** Where the snapshots live, for messages ("s3://bucket/prefix/v2"). */
  String location();

  @Override
  default void close() throws IOException {
  }

  /** Writes a snapshot's content; the store owns (and closes) the stream. */
  @FunctionalInterface
  interface ContentWriter {
    void writeTo(OutputStream out) throws IOException;
  }
}
