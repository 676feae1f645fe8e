package cloud.gardener.druid.agent.util;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Job command's last word for Kubernetes: the container's termination message (the file the
 * kubelet mounts at {@link #PATH}), shown by {@code kubectl get pod} and {@code kubectl
 * describe pod} without reading the log. Written only where the kubelet mounted the file.
 */
public final class TerminationMessage {

  private static final Logger LOG = LoggerFactory.getLogger(TerminationMessage.class);
  static final Path PATH = Path.of("/dev/termination-log");
  /** The kubelet keeps at most 4096 bytes of it. */
  static final int MAX_BYTES = 4096;

  private TerminationMessage() {
  }

  public static void write(String message) {
    write(PATH, message);
  }

  public static void write(Path file, String message) {
    if (!Files.isRegularFile(file) || !Files.isWritable(file)) {
      return;
    }
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    try {
      Files.write(file, bytes.length <= MAX_BYTES ? bytes
          : java.util.Arrays.copyOf(bytes, MAX_BYTES));
    } catch (IOException e) {
      LOG.debug("no termination message written: {}", e.toString());
    }
  }
}
