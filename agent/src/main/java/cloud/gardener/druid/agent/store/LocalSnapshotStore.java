package cloud.gardener.druid.agent.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Snapshots in a local directory ({@code <root>/<prefix>/v2/}). A snapshot is written to a
 * hidden temporary file, forced to disk and renamed atomically, so a crash never leaves a
 * listed partial object; leftovers of crashed writes start with {@value #TEMP_PREFIX}.
 */
public final class LocalSnapshotStore implements SnapshotStore {

  static final String TEMP_PREFIX = ".tmp-";

  private final Path root;
  private final Path directory;

  /** Refuses a prefix whose directory, once normalised, is not below {@code root}. */
  public LocalSnapshotStore(Path root, String prefix) {
    this.root = root;
    Path base = root.toAbsolutePath().normalize();
    Path resolved = base.resolve(prefix).normalize();
    if (resolved.equals(base) || !resolved.startsWith(base)) {
      throw new IllegalArgumentException("--store-prefix '" + prefix
          + "' leaves the store directory " + base);
    }
    this.directory = root.resolve(prefix).resolve("v2");
  }

  public Path directory() {
    return directory;
  }

  @Override
  public List<Snapshot> list() throws IOException {
    if (Files.exists(root) && !Files.isDirectory(root)) {
      throw unreachable("list", new IOException(root + " is not a directory"));
    }
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    List<Snapshot> snapshots = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      files.forEach(f -> Snapshot.parse(f.getFileName().toString()).ifPresent(snapshots::add));
    } catch (IOException e) {
      throw unreachable("list", e);
    }
    snapshots.sort(Snapshot.ORDER);
    return snapshots;
  }

  private StoreException unreachable(String what, IOException e) {
    return new StoreException("backup store " + location() + ": cannot " + what + ": " + e, e);
  }

  @Override
  public void put(Snapshot snapshot, ContentWriter content) throws IOException {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw unreachable("upload " + snapshot, e);
    }
    Path temp = directory.resolve(TEMP_PREFIX + snapshot.fileName() + "-" + UUID.randomUUID());
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE)) {
        OutputStream out = Channels.newOutputStream(channel);
        content.writeTo(new NonClosingOutputStream(out));
        out.flush();
        channel.force(true);
      }
      moveAtomically(temp, directory.resolve(snapshot.fileName()));
      forceDirectory();
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static void moveAtomically(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the store directory does not support atomic renames: " + to, e);
    }
  }

  private void forceDirectory() {
    try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException ignored) {
      // not every file system lets a directory be opened for fsync; the rename is done
    }
  }

  @Override
  public Optional<Path> localFile(Snapshot snapshot) {
    Path file = directory.resolve(snapshot.fileName());
    return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
  }

  @Override
  public InputStream open(Snapshot snapshot) throws IOException {
    try {
      return Files.newInputStream(directory.resolve(snapshot.fileName()));
    } catch (NoSuchFileException e) {
      throw new StoreException("snapshot " + snapshot + " is missing in " + location(), e);
    } catch (IOException e) {
      throw unreachable("download " + snapshot, e);
    }
  }

  @Override
  public void delete(Snapshot snapshot) throws IOException {
    try {
      Files.deleteIfExists(directory.resolve(snapshot.fileName()));
    } catch (IOException e) {
      throw unreachable("delete " + snapshot, e);
    }
  }

  @Override
  public int deleteAbandonedUploads(Instant cutoff) throws IOException {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    int deleted = 0;
    try (Stream<Path> files = Files.list(directory)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.getFileName().toString().startsWith(TEMP_PREFIX)
            && Files.getLastModifiedTime(f).toInstant().isBefore(cutoff)) {
          Files.deleteIfExists(f);
          deleted++;
        }
      }
    }
    return deleted;
  }

  @Override
  public Optional<StoreIdentity> readIdentity() throws IOException {
    Path file = directory.resolve(StoreIdentity.OBJECT_NAME);
    try {
      return Optional.of(StoreIdentity.parse(Files.readAllBytes(file)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (java.nio.file.FileSystemException e) {
      throw unreachable("read " + StoreIdentity.OBJECT_NAME, e);
    }
  }

  @Override
  public void writeIdentity(StoreIdentity identity) throws IOException {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw unreachable("write " + StoreIdentity.OBJECT_NAME, e);
    }
    Path temp = directory.resolve(TEMP_PREFIX + StoreIdentity.OBJECT_NAME + "-"
        + UUID.randomUUID());
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE)) {
        channel.write(java.nio.ByteBuffer.wrap(identity.toJson()));
        channel.force(true);
      }
      Files.move(temp, directory.resolve(StoreIdentity.OBJECT_NAME),
          StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      forceDirectory();
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public Optional<byte[]> readMarker(String name) throws IOException {
    try {
      return Optional.of(Files.readAllBytes(directory.resolve(markerName(name))));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (java.nio.file.FileSystemException e) {
      throw unreachable("read " + name, e);
    }
  }

  @Override
  public void writeMarker(String name, byte[] content) throws IOException {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw unreachable("write " + name, e);
    }
    Path temp = directory.resolve(TEMP_PREFIX + markerName(name) + "-" + UUID.randomUUID());
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE)) {
        channel.write(java.nio.ByteBuffer.wrap(content));
        channel.force(true);
      }
      Files.move(temp, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      forceDirectory();
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** A marker is one file of this directory, never a path elsewhere. */
  private static String markerName(String name) {
    if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.startsWith(".")) {
      throw new IllegalArgumentException("not a marker name: " + name);
    }
    return name;
  }

  @Override
  public String location() {
    return directory.toString();
  }
}
