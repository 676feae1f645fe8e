package cloud.gardener.druid.agent.config;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where the etcd, etcdctl and etcdutl binaries are: a picocli mixin of every command that
 * starts an etcd ({@code druid agent}, {@code druid agent compact}). Without
 * {@code --etcd-version} they are in {@code --etcd-bin-dir} (the image's default etcd); with
 * it, in {@code <--etcd-versions-dir>/etcd-v<version>}, where the image keeps each etcd it
 * ships (docs/etcd-versions.md).
 */
public final class EtcdBinDirOption {

  /** A released etcd version: nothing else ever becomes part of a path. */
  static final String VERSION_PATTERN = "^3\\.[0-9]{1,2}\\.[0-9]{1,3}$";

  @Option(names = "--etcd-bin-dir", paramLabel = "DIR",
      defaultValue = "${env:DRUID_ETCD_BIN_DIR:-/usr/local/bin}",
      description = "Directory holding the etcd and etcdutl binaries. Default:"
          + " $DRUID_ETCD_BIN_DIR, else /usr/local/bin.")
  private Path dir;

  @Option(names = "--etcd-version", paramLabel = "VERSION",
      description = "The etcd version to run (e.g. 3.6.16), from --etcd-versions-dir. Default:"
          + " the etcd in --etcd-bin-dir.")
  private String version;

  @Option(names = "--etcd-versions-dir", paramLabel = "DIR",
      defaultValue = "${env:DRUID_ETCD_VERSIONS_DIR:-/opt/etcd}",
      description = "Directory holding etcd-v<version>/ directories of each etcd the image"
          + " ships. Default: $DRUID_ETCD_VERSIONS_DIR, else /opt/etcd.")
  private Path versionsDir;

  /** The directory of the binaries to run; a missing version is refused with what exists. */
  public Path dir() {
    if (version == null || version.isBlank()) {
      return dir;
    }
    if (!version.matches(VERSION_PATTERN)) {
      throw new IllegalArgumentException("--etcd-version=" + version
          + ": not an etcd version such as 3.6.16");
    }
    Path versioned = versionsDir.resolve("etcd-v" + version);
    if (!Files.isExecutable(versioned.resolve("etcd"))) {
      throw new IllegalArgumentException("--etcd-version=" + version + ": " + versioned
          + " holds no etcd; this image ships: " + shipped());
    }
    return versioned;
  }

  private String shipped() {
    try (var entries = Files.list(versionsDir)) {
      return String.join(", ", entries.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("etcd-v")).map(n -> n.substring("etcd-v".length()))
          .sorted().toList());
    } catch (java.io.IOException e) {
      return "nothing (" + versionsDir + " cannot be read)";
    }
  }
}
