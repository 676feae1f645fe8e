package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MountPathsTest {

  private final MountPaths mounts = new MountPaths(List.of(
      new MountPaths.Mount("/var/etcd", Path.of("/host/etcd")),
      new MountPaths.Mount("/var/etcd/data", Path.of("/host/pvc-1"))));

  @Test
  void longestMountPathWins() {
    assertThat(mounts.rewrite("/var/etcd/data/new")).isEqualTo("/host/pvc-1/new");
    assertThat(mounts.rewrite("/var/etcd/config.yaml")).isEqualTo("/host/etcd/config.yaml");
  }

  @Test
  void rewritesTheValueOfAFlag() {
    assertThat(mounts.rewrite("--data-dir=/var/etcd/data")).isEqualTo("--data-dir=/host/pvc-1");
  }

  @Test
  void leavesOtherValuesAlone() {
    assertThat(mounts.rewrite("/var/etcdx")).isEqualTo("/var/etcdx");
    assertThat(mounts.rewrite("text /var/etcd/data")).isEqualTo("text /var/etcd/data");
  }
}
