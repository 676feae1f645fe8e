package cloud.gardener.druid.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.member.MemberJvmOptions;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import cloud.gardener.druid.testenv.node.DruidImage;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The member image's agent (run by runc as user 65532) writes a full snapshot into a Local
 * store; a new member pod with an empty data volume restores every key from it. Both run with
 * the JVM options the operator gives members, and the image's AOT cache must fit them
 * ({@code -XX:AOTMode=on} makes a cache the JVM refuses an error instead of a slow start).
 */
@LocalKubernetes
class ImageRestoreIT {

  private static final Duration LONG = Duration.ofMinutes(5);
  /** What the operator sets for a member of default settings, and proof of the AOT cache. */
  private static final String MEMBER_JVM_OPTIONS = MemberJvmOptions.forDeltaLimitMib(
      Quantity.getAmountInBytes(new Quantity(EtcdDefaults.DELTA_SNAPSHOT_MEMORY_LIMIT))
          .longValue() / (1024 * 1024))
      + " -XX:AOTMode=on -Xlog:aot=info";

  @Test
  void aMemberOfTheImageRestoresFromTheLocalStore(KubernetesClient client, LocalCluster cluster,
      TestNamespace ns) throws Exception {
    try {
      restoreSteps(client, cluster);
      for (String pod : new String[] {"writer", "reader"}) {
        String log = Files.readString(
            cluster.workDir().resolve("logs").resolve(ns.name() + "_" + pod + "_agent.log"));
        assertThat(log).as("the %s agent's JVM log", pod)
            .contains("Opened AOT cache /opt/druid/druid.aot", "Using AOT-linked classes: true")
            .doesNotContain("sun.misc.Unsafe", "restricted method");
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(e.getMessage() + PodLogs.tails(cluster, ns.name()), e);
    }
  }

  private void restoreSteps(KubernetesClient client, LocalCluster cluster) throws Exception {
    Path store = Files.createDirectories(cluster.workDir().resolve("restore-store"));
    client.pods().resource(member("writer", store)).create();
    String writerIp = awaitReady(client, "writer");
    try (Client etcd = Client.builder().endpoints("http://" + writerIp + ":2379").build()) {
      for (int i = 0; i < 50; i++) {
        etcd.getKVClient().put(bytes("/k/" + i), bytes("v" + i)).get();
      }
    }
    HttpResponse<String> snapshot = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://" + writerIp + ":8080" + AgentApi.SNAPSHOT_FULL))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(snapshot.statusCode()).as(snapshot.body()).isEqualTo(200);
    try (Stream<Path> files = Files.walk(store)) {
      assertThat(files.map(f -> f.getFileName().toString())).anyMatch(n -> n.startsWith("Full-"));
    }
    client.pods().withName("writer").delete();
    await().atMost(LONG).until(() -> client.pods().withName("writer").get() == null);

    client.pods().resource(member("reader", store)).create();
    String readerIp = awaitReady(client, "reader");
    try (Client etcd = Client.builder().endpoints("http://" + readerIp + ":2379").build()) {
      for (int i = 0; i < 50; i += 7) {
        var kvs = etcd.getKVClient().get(bytes("/k/" + i)).get().getKvs();
        assertThat(kvs).hasSize(1);
        assertThat(kvs.get(0).getValue().toString(StandardCharsets.UTF_8)).isEqualTo("v" + i);
      }
    }
  }

  /** A one-member agent pod of our image: empty data volume, the store as a hostPath. */
  private static Pod member(String name, Path store) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withRestartPolicy("Always")
        .addNewContainer().withName("agent").withImage(DruidImage.DEFAULT_IMAGE)
        .withArgs("agent", "--name=" + name, "--etcd-name=restore", "--pod-ip=$(POD_IP)",
            "--advertise-host=$(POD_IP)", "--leases=false", "--data-dir=/var/etcd/data/new.etcd",
            "--store-provider=Local", "--store-container=/var/backups", "--store-prefix=restore",
            "--full-snapshot-schedule=0 0 1 1 *",
            // no operator here to issue the agent API's certificates: the API's test mode
            "--insecure-api")
        .addNewEnv().withName("JAVA_TOOL_OPTIONS").withValue(MEMBER_JVM_OPTIONS).endEnv()
        .addNewEnv().withName("POD_IP").withNewValueFrom().withNewFieldRef()
        .withFieldPath("status.podIP").endFieldRef().endValueFrom().endEnv()
        .addNewEnv().withName("POD_NAMESPACE").withNewValueFrom().withNewFieldRef()
        .withFieldPath("metadata.namespace").endFieldRef().endValueFrom().endEnv()
        .withNewReadinessProbe().withNewHttpGet().withPath(AgentApi.READYZ)
        .withNewPort(8080).endHttpGet().withPeriodSeconds(1).endReadinessProbe()
        .addNewVolumeMount().withName("data").withMountPath("/var/etcd/data").endVolumeMount()
        .addNewVolumeMount().withName("store").withMountPath("/var/backups").endVolumeMount()
        .endContainer()
        .addNewVolume().withName("data").withNewEmptyDir().endEmptyDir().endVolume()
        .addNewVolume().withName("store").withNewHostPath().withPath(store.toString())
        .withType("DirectoryOrCreate").endHostPath().endVolume()
        .endSpec().build();
  }

  private static String awaitReady(KubernetesClient client, String name) {
    await().atMost(LONG).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() ->
        client.pods().withName(name).get().getStatus().getConditions().stream()
            .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
    return client.pods().withName(name).get().getStatus().getPodIP();
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

}
