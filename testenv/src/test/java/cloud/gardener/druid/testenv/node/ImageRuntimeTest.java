package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ImageRuntimeTest {

  private final EtcdImage etcd = new EtcdImage(Path.of("/bin-cache"));

  @Test
  void etcdImagesOfAnyRegistryRunTheBuiltBinary() {
    assertThat(etcd.handles("quay.io/coreos/etcd:v3.6.16")).isTrue();
    assertThat(etcd.handles("registry.k8s.io/etcd@sha256:abc")).isTrue();
    assertThat(etcd.handles("quay.io/coreos/etcd-operator:v1")).isFalse();
    assertThat(etcd.commandLine(List.of(), List.of("--name=a")))
        .containsExactly("/bin-cache/etcd", "--name=a");
    assertThat(etcd.execCommandLine(List.of("/usr/local/bin/etcdctl", "endpoint", "health")))
        .containsExactly("/bin-cache/etcdctl", "endpoint", "health");
  }

  @Test
  void ourImageRunsTheAgentMainClassOnAClasspath() {
    DruidImage image = DruidImage.classpath(DruidImage.DEFAULT_IMAGE, "/cp",
        DruidImage.DEFAULT_MAIN_CLASSES);

    assertThat(image.handles("europe-docker.pkg.dev/gardener-project/public/gardener/"
        + "etcd-druid-jvm:v0.1.0")).isTrue();
    assertThat(image.commandLine(List.of(), List.of("agent", "--port=8080")))
        .endsWith("-cp", "/cp", "cloud.gardener.druid.agent.AgentMain", "--port=8080");
  }

  @Test
  void ourImageRunsTheJar() {
    DruidImage image = DruidImage.jar(DruidImage.DEFAULT_IMAGE, Path.of("/d/druid.jar"));

    assertThat(image.commandLine(List.of("druid"), List.of("agent", "--x")))
        .endsWith("-jar", "/d/druid.jar", "agent", "--x");
  }
}
