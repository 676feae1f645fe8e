package cloud.gardener.druid.agent.config;

import cloud.gardener.druid.agent.store.Snapshot.Compression;

/**
 * How new snapshots are compressed: the format (its name suffix) and the deflate level
 * (0 stores, 1 is fastest, 9 smallest). Compression runs on {@code threads} threads.
 */
public record SnapshotCompression(Compression format, int level, int threads) {

  public static final int DEFAULT_LEVEL = 1;

  public static final SnapshotCompression NONE = new SnapshotCompression(Compression.NONE, 0, 1);
  /** gzip at level 1 on every processor: the default. */
  public static final SnapshotCompression GZIP = gzip(DEFAULT_LEVEL);

  public SnapshotCompression {
    if (level < 0 || level > 9) {
      throw new IllegalArgumentException("the compression level must be 0..9, not " + level);
    }
    if (format == Compression.LZW) {
      throw new IllegalArgumentException("writing lzw is not supported; use gzip or zlib");
    }
  }

  public static SnapshotCompression gzip(int level) {
    return of(Compression.GZIP, level);
  }

  /**
   * The compression of a snapshot written in place of {@code full} (a compaction, a
   * point-in-time restore's first full snapshot): the same format; lzw, which is only read,
   * becomes gzip.
   */
  public static SnapshotCompression like(cloud.gardener.druid.agent.store.Snapshot full) {
    return switch (full.compression()) {
      case NONE -> NONE;
      case GZIP, LZW -> GZIP;
      case ZLIB -> of(Compression.ZLIB, DEFAULT_LEVEL);
    };
  }

  /** Compression on every available processor. */
  public static SnapshotCompression of(Compression format, int level) {
    return new SnapshotCompression(format, level, Runtime.getRuntime().availableProcessors());
  }
}
