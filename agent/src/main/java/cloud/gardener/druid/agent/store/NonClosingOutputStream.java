package cloud.gardener.druid.agent.store;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Lets a writer close its wrapping streams (gzip, a JSON generator) without closing the
 * underlying stream, which the caller still writes to or closes itself.
 */
public final class NonClosingOutputStream extends FilterOutputStream {

  public NonClosingOutputStream(OutputStream out) {
    super(out);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  @Override
  public void close() throws IOException {
    flush();
  }
}
