package cloud.gardener.druid.testenv.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One delimited block of an /etc/hosts-style file, owned by this process:
 * <pre>
 * # BEGIN druid-testenv &lt;id&gt; pid=&lt;pid&gt;
 * 127.10.0.1 etcd-0.etcd-peer.ns.svc etcd-0.etcd-peer.ns.svc.cluster.local
 * # END druid-testenv &lt;id&gt;
 * </pre>
 * Both the JDK resolver and Go's pure resolver (etcd) read /etc/hosts, so names published
 * here resolve for every pod process without per-process setup. Writers of concurrent JVMs
 * serialise on a lock file; blocks of processes that are gone are removed on every write.
 * The file is rewritten in place (it may be a bind mount, which cannot be replaced by rename).
 */
public final class HostsFile {

  private static final Pattern BEGIN = Pattern.compile("^# BEGIN druid-testenv (\\S+) pid=(\\d+)$");

  private final Path file;
  private final Path lockFile;
  private final String id;

  public HostsFile(Path file, String id) {
    this.file = file;
    this.lockFile = Path.of(System.getProperty("java.io.tmpdir"), "druid-testenv-hosts.lock");
    this.id = id;
  }

  /** The system's /etc/hosts, or the file named by system property {@code druid.hostsFile}. */
  public static HostsFile system(String id) {
    return new HostsFile(Path.of(System.getProperty("druid.hostsFile", "/etc/hosts")), id);
  }

  public Path path() {
    return file;
  }

  public boolean isWritable() {
    return Files.isWritable(file);
  }

  /** Replaces this process's block with {@code lines} ("ip name…"); empty removes it. */
  public void publish(List<String> lines) {
    try (FileChannel lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock ignored = lockChannel.lock()) {
      List<String> kept = withoutOwnAndStaleBlocks(Files.readAllLines(file, StandardCharsets.UTF_8));
      if (!lines.isEmpty()) {
        kept.add("# BEGIN druid-testenv " + id + " pid=" + ProcessHandle.current().pid());
        kept.addAll(lines);
        kept.add("# END druid-testenv " + id);
      }
      writeInPlace(String.join("\n", kept) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot update " + file, e);
    }
  }

  public void remove() {
    publish(List.of());
  }

  private List<String> withoutOwnAndStaleBlocks(List<String> lines) {
    List<String> kept = new ArrayList<>();
    String skippingUntil = null;
    for (String line : lines) {
      if (skippingUntil != null) {
        if (line.equals(skippingUntil)) {
          skippingUntil = null;
        }
        continue;
      }
      Matcher begin = BEGIN.matcher(line);
      if (begin.matches() && (begin.group(1).equals(id) || !alive(begin.group(2)))) {
        skippingUntil = "# END druid-testenv " + begin.group(1);
        continue;
      }
      kept.add(line);
    }
    return kept;
  }

  private static boolean alive(String pid) {
    return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
  }

  private void writeInPlace(String text) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
      long length = bytes.remaining();
      long position = 0;
      while (bytes.hasRemaining()) {
        position += channel.write(bytes, position);
      }
      channel.truncate(length); // after writing: readers never see an empty file
      channel.force(false);
    }
  }
}
