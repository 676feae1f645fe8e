package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.process.BuildScript;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Our own image as an OCI archive, built by {@code images/build.sh} from
 * {@code cli/target/druid.jar} (cached under {@code ~/.cache/etcd-druid/images}, keyed by the
 * hash of its inputs).
 */
public final class OciImages {

  private OciImages() {
  }

  /**
   * The cache directory of built and unpacked images: where {@code images/build.sh} puts them
   * ({@code $DRUID_IMAGE_CACHE}, else {@code $HOME/.cache/etcd-druid/images}; the JVM's
   * {@code user.home} comes from the password database and can differ from {@code $HOME}).
   */
  public static Path cacheDir() {
    String configured = System.getenv("DRUID_IMAGE_CACHE");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    String home = System.getenv("HOME");
    return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"),
        ".cache", "etcd-druid", "images");
  }

  /** {@code image} (any tag) run with runc from {@code archive}. */
  public static OciImage fromArchive(String image, Supplier<Path> archive) {
    return new OciImage(image, archive, cacheDir().resolve("unpacked"),
        HostsFile.system("oci").path());
  }

  /**
   * Builds (or finds cached) the image archive of this checkout; {@code args} as
   * {@code images/build.sh} takes them (e.g. {@code --jar FILE}).
   */
  public static Path build(List<String> args, Consumer<String> progress) {
    Path repo = ControlPlaneBinaries.repoRoot();
    return BuildScript.run(repo.resolve("images/build.sh"), args, progress);
  }
}
