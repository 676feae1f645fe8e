package cloud.gardener.druid.testenv.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Any image whose repository ends with {@code etcd} ({@code quay.io/coreos/etcd:v3.6.x},
 * {@code registry.k8s.io/etcd}, …) runs the locally built etcd; a command naming
 * {@code etcd}, {@code etcdctl} or {@code etcdutl} by any path maps to the built binary of that
 * name, and anything else runs as given.
 */
public record EtcdImage(Path binDir) implements ImageRuntime {

  private static final Set<String> BINARIES = Set.of("etcd", "etcdctl", "etcdutl");

  @Override
  public boolean handles(String image) {
    return ImageRuntime.repository(image).endsWith("etcd");
  }

  @Override
  public List<String> commandLine(List<String> command, List<String> args) {
    List<String> argv = new ArrayList<>();
    if (command.isEmpty()) {
      argv.add(binDir.resolve("etcd").toString());
    } else {
      argv.addAll(execCommandLine(command));
    }
    argv.addAll(args);
    return argv;
  }

  @Override
  public List<String> execCommandLine(List<String> command) {
    List<String> argv = new ArrayList<>(command);
    String name = ImageRuntime.basename(command.get(0));
    if (BINARIES.contains(name)) {
      argv.set(0, binDir.resolve(name).toString());
    }
    return argv;
  }
}
