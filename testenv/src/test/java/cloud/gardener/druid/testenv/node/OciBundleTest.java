package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OciBundleTest {

  @TempDir
  Path dir;

  private final OciImage.Unpacked image = new OciImage.Unpacked(Path.of("/images/rootfs"),
      List.of("/opt/java/bin/java", "-jar", "/opt/druid/druid.jar"), List.of("--help"),
      List.of("PATH=/usr/local/bin:/opt/java/bin", "JAVA_HOME=/opt/java"), "65532:65532",
      "/home/nonroot");

  private OciBundle.Request request(List<String> command, List<String> args, Long runAsUser) {
    return new OciBundle.Request("ns_pod_c_1234", dir.resolve("state"), dir.resolve("bundle"),
        command, args, Map.of("PATH", "/host/bin", "HOME", "/host/pod", "POD_IP", "127.10.0.5",
            "DRUID_POD_ROOT", "/host/pod"),
        List.of(new MountPaths.Mount("/var/etcd/data", dir.resolve("pvc")),
            new MountPaths.Mount("/var/run/secrets/kubernetes.io/serviceaccount", dir.resolve("sa"))),
        Set.of("/var/run/secrets/kubernetes.io/serviceaccount"), runAsUser, null, "pod", List.of());
  }

  private JsonNode config() throws Exception {
    return new ObjectMapper().readTree(dir.resolve("bundle/config.json").toFile());
  }

  @Test
  void argsReplaceTheImageCmdAndKeepItsEntrypointAsKubernetesDoes() throws Exception {
    OciBundle bundle = OciBundle.write(image, Path.of("/etc/hosts"),
        request(List.of(), List.of("agent", "--x"), null));
    JsonNode process = config().get("process");
    assertThat(process.get("args").toString())
        .isEqualTo("[\"/opt/java/bin/java\",\"-jar\",\"/opt/druid/druid.jar\",\"agent\",\"--x\"]");
    assertThat(bundle.argv()).containsExactly("runc", "--root", dir.resolve("state").toString(),
        "run", "--bundle", dir.resolve("bundle").toString(), "ns_pod_c_1234");
  }

  @Test
  void runsAsTheImageUserWithTheImagePathAndThePodEnvironment() throws Exception {
    OciBundle.write(image, Path.of("/etc/hosts"), request(List.of(), List.of(), null));
    JsonNode process = config().get("process");
    assertThat(process.get("user").get("uid").asLong()).isEqualTo(65532);
    assertThat(process.get("capabilities").get("effective")).isEmpty();
    assertThat(process.get("args").toString()).endsWith("\"--help\"]");
    List<String> env = new ObjectMapper().convertValue(process.get("env"), List.class);
    assertThat(env).contains("PATH=/usr/local/bin:/opt/java/bin", "POD_IP=127.10.0.5")
        .noneMatch(e -> e.startsWith("HOME=") || e.startsWith("DRUID_POD_ROOT="));
  }

  @Test
  void thePodsRunAsUserWins() throws Exception {
    OciBundle.write(image, Path.of("/etc/hosts"), request(List.of(), List.of(), 1000L));
    assertThat(config().get("process").get("user").get("uid").asLong()).isEqualTo(1000);
  }

  @Test
  void sharesTheHostNetworkAndMountsVolumesReadOnlyWhereKubernetesWould() throws Exception {
    OciBundle.write(image, Path.of("/etc/hosts"), request(List.of(), List.of(), null));
    JsonNode config = config();
    assertThat(config.get("linux").get("namespaces").findValuesAsText("type"))
        .containsExactlyInAnyOrder("pid", "ipc", "uts", "mount");
    assertThat(config.get("root").get("readonly").asBoolean()).isTrue();
    JsonNode mounts = config.get("mounts");
    assertThat(mounts.toString())
        .contains("{\"destination\":\"/var/etcd/data\",\"type\":\"bind\",\"source\":\""
            + dir.resolve("pvc") + "\",\"options\":[\"rbind\",\"rw\"]}")
        .contains("\"destination\":\"/var/run/secrets/kubernetes.io/serviceaccount\"")
        .contains("{\"destination\":\"/etc/hosts\",\"type\":\"bind\",\"source\":\"/etc/hosts\","
            + "\"options\":[\"rbind\",\"ro\"]}");
  }

  @Test
  void namesNotInTheHostsFileAreAskedOfLoopbackOnly() throws Exception {
    OciBundle.write(image, Path.of("/etc/hosts"), request(List.of(), List.of(), null));
    Path resolvConf = dir.resolve("bundle").resolve("resolv.conf");
    assertThat(config().get("mounts").toString())
        .contains("{\"destination\":\"/etc/resolv.conf\",\"type\":\"bind\",\"source\":\""
            + resolvConf + "\",\"options\":[\"rbind\",\"ro\"]}");
    List<String> nameservers = Files.readAllLines(resolvConf).stream()
        .filter(line -> line.startsWith("nameserver ")).toList();
    assertThat(nameservers).containsExactly("nameserver 127.0.0.1");
  }

  @Test
  void anImageWithoutEntrypointNeedsACommand() {
    OciImage.Unpacked bare = new OciImage.Unpacked(Path.of("/r"), List.of(), List.of(), List.of(),
        "", "/");
    assertThatThrownBy(() -> OciBundle.write(bare, Path.of("/etc/hosts"),
        request(List.of(), List.of(), null))).hasMessageContaining("no command");
  }
}
