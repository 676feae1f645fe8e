package cloud.gardener.druid.api;

import java.nio.file.Path;

/** The repository root, passed to tests by the build (property druid.repoRoot). */
final class RepoRoot {

  private RepoRoot() {
  }

  static Path path() {
    String root = System.getProperty("druid.repoRoot");
    return (root == null ? Path.of("..") : Path.of(root)).toAbsolutePath().normalize();
  }
}
