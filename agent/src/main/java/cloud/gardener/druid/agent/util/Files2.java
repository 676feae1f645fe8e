package cloud.gardener.druid.agent.util;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** File-system steps the data directory swaps need. */
public final class Files2 {

  private Files2() {
  }

  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Forces every file and directory below {@code root} to disk. */
  public static void syncTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        try (FileChannel channel = FileChannel.open(p, StandardOpenOption.READ)) {
          channel.force(true);
        } catch (IOException e) {
          if (!Files.isDirectory(p)) {
            throw e;
          }
        }
      }
    }
  }
}
