package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.TestPods;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A changed Secret or ConfigMap reaches a running pod's files as with a kubelet: after the
 * node's delay, by swapping {@code ..data} to a new version, without a container restart; a
 * subPath mount keeps the version it started with.
 */
@LocalKubernetes
class VolumeRefreshIT {

  private static final String SCRIPT = "while true; do echo \"crt=$(cat $TLS/tls.crt)"
      + " data=$(readlink $TLS/..data) link=$(readlink $TLS/tls.crt) conf=$(cat $CONF/a)"
      + " pinned=$(cat $PINNED)\"; sleep 0.1; done";

  @Test
  void changedSecretAndConfigMapAreSwappedIntoTheRunningPodAfterTheNodeDelay(
      KubernetesClient client, LocalCluster cluster, TestNamespace ns) {
    client.secrets().resource(new SecretBuilder().withNewMetadata().withName("tls").endMetadata()
        .addToStringData("tls.crt", "one").build()).create();
    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("conf")
        .endMetadata().addToData("a", "c1").addToData("p", "p1").build()).create();
    client.pods().resource(TestPods.shell("reader", SCRIPT).editSpec()
        .addNewVolume().withName("tls").withNewSecret().withSecretName("tls").endSecret()
        .endVolume()
        .addNewVolume().withName("conf").withNewConfigMap().withName("conf").endConfigMap()
        .endVolume()
        .editFirstContainer()
        .addNewEnv().withName("TLS").withValue("/etc/tls").endEnv()
        .addNewEnv().withName("CONF").withValue("/etc/conf").endEnv()
        .addNewEnv().withName("PINNED").withValue("/etc/pinned.txt").endEnv()
        .addNewVolumeMount().withName("tls").withMountPath("/etc/tls").endVolumeMount()
        .addNewVolumeMount().withName("conf").withMountPath("/etc/conf").endVolumeMount()
        .addNewVolumeMount().withName("conf").withMountPath("/etc/pinned.txt").withSubPath("p")
        .endVolumeMount()
        .endContainer().endSpec().build()).create();
    String first = await().atMost(TestPods.TIMEOUT).until(() -> lastLine(cluster, ns),
        line -> line != null && line.contains("crt=one"));
    assertThat(first).contains("link=..data/tls.crt", "conf=c1", "pinned=p1");

    Instant changed = Instant.now();
    client.secrets().withName("tls").edit(s -> new SecretBuilder(s).withData(null)
        .addToStringData("tls.crt", "two").build());
    client.configMaps().withName("conf").edit(c -> new ConfigMapBuilder(c)
        .addToData("a", "c2").addToData("p", "p2").build());
    String second = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> lastLine(cluster, ns), line -> line.contains("crt=two")
            && line.contains("conf=c2"));
    Duration took = Duration.between(changed, Instant.now());

    assertThat(took).isGreaterThanOrEqualTo(LocalClusterDelay.configured().minusMillis(200));
    assertThat(field(second, "data")).startsWith("..").isNotEqualTo(field(first, "data"));
    assertThat(second).contains("link=..data/tls.crt", "pinned=p1");
    assertThat(linesAfter(TestPods.log(cluster, ns.name(), "reader"), "crt=two"))
        .noneMatch(l -> l.contains("crt=one"));
    Pod pod = client.pods().withName("reader").get();
    assertThat(pod.getStatus().getContainerStatuses().get(0).getRestartCount()).isZero();
  }

  private static String lastLine(LocalCluster cluster, TestNamespace ns) {
    List<String> lines = TestPods.log(cluster, ns.name(), "reader").lines()
        .filter(l -> l.contains("crt=")).toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }

  private static List<String> linesAfter(String log, String marker) {
    List<String> lines = log.lines().toList();
    int first = 0;
    while (first < lines.size() && !lines.get(first).contains(marker)) {
      first++;
    }
    return lines.subList(first, lines.size());
  }

  private static String field(String line, String name) {
    Matcher m = Pattern.compile(name + "=(\\S*)").matcher(line);
    return m.find() ? m.group(1) : "";
  }

  /** The delay LocalCluster gives its node (2 s unless -Ddruid.node.volumeRefreshSeconds). */
  private static final class LocalClusterDelay {
    static Duration configured() {
      return Duration.ofMillis((long) (1000
          * Double.parseDouble(System.getProperty("druid.node.volumeRefreshSeconds", "2"))));
    }
  }
}
