package cloud.gardener.druid.agent.store;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Lets a content writer close its wrapping streams (gzip) without closing the store's. */
final class NonClosingOutputStream extends FilterOutputStream {

  NonClosingOutputStream(OutputStream out) {
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
