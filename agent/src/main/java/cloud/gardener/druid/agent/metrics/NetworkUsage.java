package cloud.gardener.druid.agent.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Bytes sent and received by every interface of this process's network namespace (the pod's),
 * summed from {@code /proc/self/net/dev} at each read, as etcd-backup-restore counts them.
 */
final class NetworkUsage {

  private static final Path PROC_NET_DEV = Path.of("/proc/self/net/dev");
  private static final int RECEIVED_FIELD = 0;
  private static final int TRANSMITTED_FIELD = 8;

  private final Path file;

  NetworkUsage(Path file) {
    this.file = file;
  }

  static Optional<NetworkUsage> ofThisProcess() {
    return Files.isReadable(PROC_NET_DEV) ? Optional.of(new NetworkUsage(PROC_NET_DEV))
        : Optional.empty();
  }

  double receivedBytes() {
    return sum(RECEIVED_FIELD);
  }

  double transmittedBytes() {
    return sum(TRANSMITTED_FIELD);
  }

  /** NaN when the file cannot be read, as upstream reports it. */
  private double sum(int field) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException | UncheckedIOException e) {
      return Double.NaN;
    }
    double total = 0;
    for (String line : lines) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String[] fields = line.substring(colon + 1).trim().split("\\s+");
      try {
        total += Double.parseDouble(fields[field]);
      } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
        return Double.NaN;
      }
    }
    return total;
  }
}
