package cloud.gardener.druid.api;

import cloud.gardener.druid.api.agent.AgentApi;
/**
 * How far a copy of backups ({@code druid agent copy}) is: the phrases the copy logs and
 * serves, plain text, on {@code GET http://$POD_IP:}{@link #PORT}{@link #PATH} while it runs,
 * where the operator reads them for the EtcdCopyBackupsTask's status. Shared by the copy
 * (server) and the operator (client), like {@link AgentApi}.
 */
public final class CopyProgress {

  /** The copy Job container's port {@code progress}. */
  public static final int PORT = 8090;
  public static final String PORT_NAME = "progress";
  public static final String PATH = "/copy/progress";

  private CopyProgress() {
  }

  /** E.g. "3 of 10 snapshots copied (12.0 MiB)". */
  public static String copied(int copied, int of, long bytes) {
    return copied + " of " + of + " snapshots copied (" + ByteSizes.of(bytes) + ")";
  }

  /** E.g. "waiting for the final full snapshot in Local bucket/prefix". */
  public static String waiting(String sourceLocation) {
    return "waiting for the final full snapshot in " + sourceLocation;
  }
}
