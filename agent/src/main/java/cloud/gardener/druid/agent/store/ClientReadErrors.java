package cloud.gardener.druid.agent.store;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Function;

/**
 * A download stream of a cloud client that throws unchecked exceptions while reading: each
 * one of {@code type} is reported as the store's {@link StoreException}, naming the store.
 */
final class ClientReadErrors<E extends RuntimeException> extends FilterInputStream {

  private final Class<E> type;
  private final Function<E, StoreException> asStoreError;

  ClientReadErrors(InputStream in, Class<E> type, Function<E, StoreException> asStoreError) {
    super(in);
    this.type = type;
    this.asStoreError = asStoreError;
  }

  @Override
  public int read() throws IOException {
    try {
      return super.read();
    } catch (RuntimeException e) {
      throw translated(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return super.read(b, off, len);
    } catch (RuntimeException e) {
      throw translated(e);
    }
  }

  private IOException translated(RuntimeException e) {
    if (type.isInstance(e)) {
      return asStoreError.apply(type.cast(e));
    }
    throw e;
  }
}
