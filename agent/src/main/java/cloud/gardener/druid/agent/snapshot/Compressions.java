package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.snapshot.ParallelDeflateOutputStream.Format;
import cloud.gardener.druid.agent.store.Snapshot;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * Wraps streams in the compression a snapshot's name says. Written: gzip and zlib (the
 * upstream policies but lzw); read: gzip, zlib and lzw (Go's compress/lzw as upstream
 * writes it).
 */
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
      case ZLIB -> new ZlibInputStream(in);
      case LZW -> new LzwInputStream(new BufferedInputStream(in, BUFFER));
    };
  }

  /** A zlib reader with a large buffer that frees its inflater on close. */
  private static final class ZlibInputStream extends InflaterInputStream {
    ZlibInputStream(InputStream in) {
      super(in, new Inflater(), BUFFER);
    }

    @Override
    public void close() throws IOException {
      try {
        super.close();
      } finally {
        inf.end();
      }
    }
  }
}
