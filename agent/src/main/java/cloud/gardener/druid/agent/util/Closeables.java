package cloud.gardener.druid.agent.util;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Closing while stopping: a failure is logged, never thrown, so that the rest still closes. */
public final class Closeables {

  private static final Logger LOG = LoggerFactory.getLogger(Closeables.class);

  private Closeables() {
  }

  /** Closes each in order; nulls are skipped. */
  public static void closeQuietly(AutoCloseable... closeables) {
    for (AutoCloseable closeable : closeables) {
      if (closeable == null) {
        continue;
      }
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.warn("while stopping: {}", e.toString());
      }
    }
  }
}
