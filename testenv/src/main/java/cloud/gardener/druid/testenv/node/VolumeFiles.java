package cloud.gardener.druid.testenv.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The files of a Secret, ConfigMap, downwardAPI or projected volume, written as the kubelet's
 * atomic writer does: each version in its own directory {@code ..<timestamp>}, the symlink
 * {@code ..data} pointing at the current one (swapped by one rename), and every top-level
 * name a symlink {@code name -> ..data/name}. A reader opening {@code tls.crt} and then
 * {@code tls.key} can still see two versions; one that resolves {@code ..data} first reads
 * one version of every file.
 */
public final class VolumeFiles {

  static final String DATA = "..data";
  private static final String DATA_TMP = "..data_tmp";
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyy_MM_dd_HH_mm_ss");
  private static final AtomicLong SEQUENCE = new AtomicLong();

  private VolumeFiles() {
  }

  /** Makes {@code payload} the volume's current version, as a kubelet does on a change. */
  public static void write(Path dir, Map<String, byte[]> payload) {
    write(dir, payload, Set.of());
  }

  /**
   * Makes {@code payload} (relative path → content) the volume's current version; the
   * previous version's directory is removed unless it is in {@code pinned}.
   *
   * @throws IllegalArgumentException for a path that is absolute or leaves the volume
   */
  static void write(Path dir, Map<String, byte[]> payload, Set<Path> pinned) {
    payload.keySet().forEach(VolumeFiles::checkPath);
    try {
      Files.createDirectories(dir);
      Path previous = current(dir);
      Path version = Files.createDirectory(dir.resolve(versionName()));
      for (Map.Entry<String, byte[]> file : payload.entrySet()) {
        Path target = version.resolve(file.getKey());
        Files.createDirectories(target.getParent());
        Files.write(target, file.getValue());
      }
      Path tmp = dir.resolve(DATA_TMP);
      Files.deleteIfExists(tmp);
      Files.createSymbolicLink(tmp, version.getFileName());
      Files.move(tmp, dir.resolve(DATA), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      Set<String> names = topLevelNames(payload);
      linkNames(dir, names);
      removeStaleNames(dir, names);
      if (previous != null && !pinned.contains(previous.toRealPath())) {
        deleteTree(previous);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** True when the volume's current version holds exactly {@code payload}. */
  static boolean holds(Path dir, Map<String, byte[]> payload) {
    Path version = current(dir);
    if (version == null) {
      return false;
    }
    try (Stream<Path> files = Files.walk(version)) {
      long count = files.filter(Files::isRegularFile).count();
      if (count != payload.size()) {
        return false;
      }
      for (Map.Entry<String, byte[]> file : payload.entrySet()) {
        Path p = version.resolve(file.getKey());
        if (!Files.isRegularFile(p) || !Arrays.equals(Files.readAllBytes(p), file.getValue())) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The directory of the current version, or null before the first write. */
  static Path current(Path dir) {
    Path data = dir.resolve(DATA);
    if (!Files.isSymbolicLink(data)) {
      return null;
    }
    try {
      return dir.resolve(Files.readSymbolicLink(data));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void checkPath(String path) {
    if (path.isEmpty() || path.startsWith("/") || path.startsWith("..")
        || Arrays.asList(path.split("/")).contains("..")) {
      throw new IllegalArgumentException("volume file path " + path
          + " must be relative, must not contain '..' and must not start with '..'");
    }
  }

  private static String versionName() {
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    return ".." + STAMP.format(now) + "." + String.format("%09d", now.getNano())
        + "_" + SEQUENCE.incrementAndGet();
  }

  private static Set<String> topLevelNames(Map<String, byte[]> payload) {
    Set<String> names = new TreeSet<>();
    payload.keySet().forEach(path -> names.add(path.split("/")[0]));
    return names;
  }

  private static void linkNames(Path dir, Set<String> names) throws IOException {
    for (String name : names) {
      Path link = dir.resolve(name);
      if (Files.isSymbolicLink(link)) {
        continue;
      }
      if (Files.exists(link)) { // a file of the simulator before it wrote versions
        deleteTree(link);
      }
      try {
        Files.createSymbolicLink(link, Path.of(DATA, name));
      } catch (FileAlreadyExistsException e) {
        // created concurrently: same target
      }
    }
  }

  private static void removeStaleNames(Path dir, Set<String> names) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : entries.toList()) {
        String name = entry.getFileName().toString();
        if (!name.startsWith("..") && !names.contains(name) && Files.isSymbolicLink(entry)) {
          Files.delete(entry);
        }
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
