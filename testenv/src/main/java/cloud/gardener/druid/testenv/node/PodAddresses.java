package cloud.gardener.druid.testenv.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * Loopback addresses for pods. Each simulator claims its own /16 of 127.0.0.0/8,
 * {@code 127.<n>.0.0/16} with n from 10 upward, by holding a lock file, so simulators of
 * concurrent JVMs never hand out the same address. Within it, pod {@code ns/name} keeps its
 * address for the life of the simulator (a recreated member gets its old address back), starting
 * at {@code 127.<n>.0.1}.
 */
public final class PodAddresses implements AutoCloseable {

  private static final Path LOCK_DIR = Path.of(System.getProperty("java.io.tmpdir"),
      "druid-testenv-subnets");

  private final int subnet;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final Map<String, String> byPod = new HashMap<>();
  private int next;

  private PodAddresses(int subnet, FileChannel lockChannel, FileLock lock) {
    this.subnet = subnet;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  public static PodAddresses claim() {
    try {
      Files.createDirectories(LOCK_DIR);
      for (int n = 10; n < 255; n++) {
        FileChannel channel = FileChannel.open(LOCK_DIR.resolve("127." + n + ".lock"),
            StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = tryLock(channel);
        if (lock != null) {
          return new PodAddresses(n, channel, lock);
        }
        channel.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("all loopback subnets 127.10-254.0.0/16 are claimed");
  }

  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException e) {
      return null; // claimed by another simulator of this JVM
    }
  }

  /** The address of pod {@code namespace/name}, allocated on first use. */
  public synchronized String addressOf(String namespace, String name) {
    return byPod.computeIfAbsent(namespace + "/" + name, k -> {
      int index = next++;
      if (index >= 254 * 255) { // 127.<n>.255.0/24 stays free: see unreachable()
        throw new IllegalStateException("no loopback address left in 127." + subnet + ".0.0/16");
      }
      return "127." + subnet + "." + (index / 254) + "." + (1 + index % 254);
    });
  }

  /**
   * An address of this subnet that no pod ever gets and nothing listens on: names of pods and
   * services that are gone resolve to it, so that no lookup of a cluster name leaves the
   * machine.
   */
  public String unreachable() {
    return "127." + subnet + ".255.254";
  }

  public String subnet() {
    return "127." + subnet + ".0.0/16";
  }

  @Override
  public void close() {
    try {
      lock.release();
      lockChannel.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
