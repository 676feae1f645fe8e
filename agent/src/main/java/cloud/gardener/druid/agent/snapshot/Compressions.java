package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.store.Snapshot;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import cloud.gardener.druid.agent.snapshot.ParallelDeflateOutputStream.Format;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/** Wraps streams in the compression a snapshot's name says. */
public final class Compressions {

  private static final int BUFFER = 64 * 1024;

  private Compressions() {
  }

  /** Compresses on the settings' threads; closing the result closes {@code out}. */
  public static OutputStream compress(SnapshotCompression settings, OutputStream out)
      throws IOException {
    return switch (settings.format()) {
      case NONE -> out;
      case GZIP -> new ParallelDeflateOutputStream(out, Format.GZIP, settings.level(),
          settings.threads());
      case ZLIB -> new ParallelDeflateOutputStream(out, Format.ZLIB, settings.level(),
          settings.threads());
      case LZW -> throw new IOException("writing lzw is not supported");
    };
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
