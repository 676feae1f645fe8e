package cloud.gardener.druid.agent.store;

import java.io.IOException;

/** The backup store could not be reached or refused an operation. */
public final class StoreException extends IOException {

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
