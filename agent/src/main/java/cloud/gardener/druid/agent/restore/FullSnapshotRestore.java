package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.snapshot.Compressions;
import cloud.gardener.druid.agent.snapshot.EtcdSnapshotHash;
import cloud.gardener.druid.agent.snapshot.SnapshotIntegrityException;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.util.ProcessRunner;
import cloud.gardener.druid.agent.util.ReadAheadInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The full snapshot's part of a restore ({@link Restorer}): download or hand over the local
 * file, check its hash, and restore it into the staging directory with etcdutl, its revision
 * raised by the bump the deltas' count gives.
 */
final class FullSnapshotRestore {

  private static final Logger LOG = LoggerFactory.getLogger(FullSnapshotRestore.class);
  private static final int DOWNLOAD_CHUNK = 256 * 1024;

  private final SnapshotStore store;
  private final EtcdTuning etcd;
  private final MemberConfig member;
  private final RestoreProgress progress;

  FullSnapshotRestore(SnapshotStore store, EtcdTuning etcd, MemberConfig member,
      RestoreProgress progress) {
    this.store = store;
    this.etcd = etcd;
    this.member = member;
    this.progress = progress;
  }

  /** The full snapshot restored at {@code revision}; its hash check may still run. */
  record Result(long revision, CompletableFuture<Void> hashChecked) {
  }

  /** The revision bump of the full snapshot, read once the deltas are counted. */
  @FunctionalInterface
  interface Bump {
    long get() throws IOException, RestoreException;
  }

  /**
   * Restores the full snapshot, its revision raised by {@code bump} (0: kept). etcdutl never
   * checks the hash itself (its check re-reads the whole copy it wrote, doubling its time):
   * an uncompressed snapshot on a local disk is handed to etcdutl as it is, and this agent
   * checks its hash on another thread once etcdutl is done (1.6 s of CPU for 1.3 GB: on 2
   * cores it slowed the count, and then etcdutl, which the restore waits for; beside the
   * temporary etcd and the replay it cost less in the runs measured), awaited before the
   * restored directory is used; any other is
   * downloaded first, the download checking the hash on the bytes it writes. etcdutl still
   * cuts the hash off the database.
   */
  Result restore(Snapshot full, Path work, Path staging, Bump bumpOnceCounted)
      throws IOException, RestoreException {
    long started = System.nanoTime();
    Optional<Path> local = full.compression() == Snapshot.Compression.NONE
        ? store.localFile(full) : Optional.empty();
    Path db = local.orElse(work.resolve("snapshot.db"));
    if (local.isEmpty()) {
      download(full, db, sizeInStore(full));
    }
    long downloaded = System.nanoTime();
    long bump = bumpOnceCounted.get();
    progress.update(RestoreProgress.Phase.ETCDUTL, full.fileName(), 0, 0);
    URI peerUrl = member.advertisePeerUrl();
    List<String> command = new ArrayList<>(List.of(etcd.etcdutl().toString(), "snapshot",
        "restore", db.toString(),
        "--data-dir=" + staging,
        "--name=" + member.name(),
        "--initial-cluster=" + member.name() + "=" + peerUrl,
        "--initial-advertise-peer-urls=" + peerUrl,
        "--initial-cluster-token=" + member.clusterToken(),
        "--skip-hash-check"));
    if (bump > 0) {
      command.addAll(List.of("--bump-revision=" + bump, "--mark-compacted"));
    }
    try {
      ProcessRunner.run(command, Duration.ofMinutes(30));
    } catch (IOException | RuntimeException e) {
      // a corrupt snapshot is reported as such even when etcdutl failed on it first
      if (local.isPresent()) {
        checkHash(full, local.get());
      }
      throw e;
    }
    CompletableFuture<Void> hashChecked = local.isPresent()
        ? CompletableFuture.runAsync(() -> {
          try {
            checkHash(full, local.get());
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        })
        : CompletableFuture.completedFuture(null);
    LOG.info("full snapshot {}: {} {} ms, etcdutl restore {} ms", full,
        local.isPresent() ? "hash checked in place after etcdutl restored it;" : "download",
        (downloaded - started) / 1_000_000, (System.nanoTime() - downloaded) / 1_000_000);
    if (local.isEmpty()) {
      Files.delete(db);
    }
    return new Result(full.endRevision() + bump, hashChecked);
  }

  private static void checkHash(Snapshot full, Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      EtcdSnapshotHash hashed = new EtcdSnapshotHash(OutputStream.nullOutputStream());
      in.transferTo(hashed);
      hashed.verify("full snapshot " + full);
    }
  }

  static void awaitHashCheck(CompletableFuture<Void> hashChecked) throws IOException {
    try {
      hashChecked.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      throw new IOException("checking the full snapshot's hash failed: " + e.getCause(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while checking the full snapshot's hash");
    }
  }

  private long sizeInStore(Snapshot full) {
    try {
      return store.size(full).orElse(0);
    } catch (IOException e) {
      return 0;
    }
  }

  /** Reading and decompressing run ahead on their own thread, hashing and writing on this one. */
  private void download(Snapshot full, Path db, long size) throws IOException {
    progress.update(RestoreProgress.Phase.DOWNLOAD, full.fileName(), 0, size);
    try (InputStream raw = counted(store.open(full), full, size);
        InputStream in = new ReadAheadInputStream(Compressions.decompress(full, raw), 8,
            DOWNLOAD_CHUNK, "download " + full);
        OutputStream file = Files.newOutputStream(db)) {
      EtcdSnapshotHash hashed = new EtcdSnapshotHash(file);
      try {
        in.transferTo(hashed);
      } catch (ZipException | EOFException e) {
        throw new SnapshotIntegrityException(
            "full snapshot " + full + " is corrupt: " + e.getMessage(), e);
      }
      hashed.verify("full snapshot " + full);
    }
  }

  /** {@code in} reporting the bytes read of the full snapshot to the progress. */
  private InputStream counted(InputStream in, Snapshot full, long size) {
    return new FilterInputStream(in) {
      private long read;

      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          advance(1);
        }
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
          advance(n);
        }
        return n;
      }

      private long reported;

      /** Reports each MiB (gzip reads 512 bytes at a time). */
      private void advance(long n) {
        read += n;
        if (read - reported >= 1 << 20 || read == size) {
          reported = read;
          progress.update(RestoreProgress.Phase.DOWNLOAD, full.fileName(), read, size);
        }
      }
    };
  }
}
