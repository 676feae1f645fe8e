package cloud.gardener.druid.cli.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The support bundle being written: a zip whose entries all sit under one folder named like
 * the archive, and whose {@code README.txt} (written last) lists every entry and everything
 * that could not be collected with the reason. Nothing is written to the archive before it
 * passed {@link Redaction}.
 */
final class SupportBundle implements AutoCloseable {

  private final ZipOutputStream zip;
  private final String folder;
  private final List<String> written = new ArrayList<>();
  private final List<String> missing = new ArrayList<>();
  private final String heading;

  SupportBundle(Path file, String heading) throws IOException {
    OutputStream out = Files.newOutputStream(file);
    this.zip = new ZipOutputStream(out);
    String name = file.getFileName().toString();
    this.folder = name.endsWith(".zip") ? name.substring(0, name.length() - 4) : name;
    this.heading = heading;
  }

  /** Adds {@code text} as {@code path} (relative to the bundle's folder). */
  void add(String path, String text) throws IOException {
    zip.putNextEntry(new ZipEntry(folder + "/" + path));
    zip.write(text.getBytes(StandardCharsets.UTF_8));
    zip.closeEntry();
    written.add(path);
  }

  /** Records what could not be collected, and why; listed in README.txt. */
  void missing(String what, String why) {
    missing.add(what + ": " + why);
  }

  int entries() {
    return written.size();
  }

  List<String> missing() {
    return List.copyOf(missing);
  }

  @Override
  public void close() throws IOException {
    StringBuilder readme = new StringBuilder(heading).append("\nWritten ")
        .append(Instant.now()).append(". Secret values are redacted.\n\nFiles:\n");
    written.forEach(p -> readme.append("  ").append(p).append('\n'));
    readme.append("\nNot collected:\n");
    if (missing.isEmpty()) {
      readme.append("  (nothing)\n");
    }
    missing.forEach(m -> readme.append("  ").append(m).append('\n'));
    add("README.txt", readme.toString());
    zip.close();
  }
}
