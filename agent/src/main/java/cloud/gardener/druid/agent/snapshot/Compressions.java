package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;

/** Wraps streams in the compression a snapshot's name says. */
public final class Compressions {

  private static final int BUFFER = 64 * 1024;

  private Compressions() {
  }

  public static OutputStream compress(Compression compression, OutputStream out)
      throws IOException {
    return switch (compression) {
      case NONE -> out;
      case GZIP -> new FastGzipOutputStream(out);
      default -> throw new IOException("writing " + compression + " is not supported");
    };
  }

  /** gzip at level 1: several times faster than the default level, most of its gain. */
  private static final class FastGzipOutputStream extends GZIPOutputStream {
    FastGzipOutputStream(OutputStream out) throws IOException {
      super(out, BUFFER);
      def.setLevel(Deflater.BEST_SPEED);
    }
  }

  public static InputStream decompress(Snapshot snapshot, InputStream in) throws IOException {
    return switch (snapshot.compression()) {
      case NONE -> in;
      case GZIP -> new GZIPInputStream(in, BUFFER);
      case ZLIB -> new InflaterInputStream(in);
      case LZW -> throw new SnapshotIntegrityException(
          snapshot + " is LZW-compressed, which this agent cannot read");
    };
  }
}
