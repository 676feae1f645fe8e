package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.process.BuildScript;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Our own image as an OCI archive, built by {@code images/build.sh} from
 * {@code cli/target/druid.jar} (cached under {@code ~/.cache/etcd-druid/images}, keyed by the
 * hash of its inputs).
 */
public final class OciImages {

  private OciImages() {
  }

  /** The cache directory of built and unpacked images. */
  public static Path cacheDir() {
    String configured = System.getenv("DRUID_IMAGE_CACHE");
    return configured != null && !configured.isBlank() ? Path.of(configured)
        : Path.of(System.getProperty("user.home"), ".cache", "etcd-druid", "images");
  }

  /** Our image {@code image} (any tag), run with runc from the archive built on first use. */
  public static OciImage druid(String image) {
    return druid(image, line -> { });
  }

  /** As {@link #druid(String)}, with the build's progress lines. */
  public static OciImage druid(String image, Consumer<String> progress) {
    return new OciImage(image, () -> build(progress), cacheDir().resolve("unpacked"),
        HostsFile.system("oci").path());
  }

  /** Builds (or finds cached) the image archive of this checkout. */
  public static Path build(Consumer<String> progress) {
    Path repo = ControlPlaneBinaries.repoRoot();
    return BuildScript.run(repo.resolve("images/build.sh"), List.of(), progress);
  }
}
