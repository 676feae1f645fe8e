package cloud.gardener.druid.testenv.node;

import java.util.ArrayList;
import java.util.List;

/**
 * A test image (default {@value #DEFAULT_IMAGE}): the container's command and args, joined by
 * spaces, run as one {@code bash -c} script on the host.
 */
public record ShellImage(String image) implements ImageRuntime {

  public static final String DEFAULT_IMAGE = "druid-test/shell";

  public ShellImage() {
    this(DEFAULT_IMAGE);
  }

  @Override
  public boolean handles(String candidate) {
    return ImageRuntime.repository(candidate).equals(ImageRuntime.repository(image));
  }

  @Override
  public List<String> commandLine(List<String> command, List<String> args) {
    List<String> words = new ArrayList<>(command);
    words.addAll(args);
    return List.of("bash", "-c", String.join(" ", words));
  }
}
