package cloud.gardener.druid.agent.snapshot;

import java.io.IOException;

/** A snapshot's content does not match its checksum, or is truncated or undecodable. */
public final class SnapshotIntegrityException extends IOException {

  public SnapshotIntegrityException(String message) {
    super(message);
  }

  public SnapshotIntegrityException(String message, Throwable cause) {
    super(message, cause);
  }
}
