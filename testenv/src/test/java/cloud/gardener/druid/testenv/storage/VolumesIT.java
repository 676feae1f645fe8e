package cloud.gardener.druid.testenv.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.TestPods;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

@LocalKubernetes
class VolumesIT {

  @ParameterizedTest
  @ValueSource(strings = {"standard", "expandable", "encrypted"})
  void claimBindsKeepsDataAcrossPodsAndItsDirectoryGoesWithIt(String storageClass,
      KubernetesClient client, LocalCluster cluster, TestNamespace ns) {
    String claim = "data-" + storageClass;
    client.persistentVolumeClaims().resource(claim(claim, storageClass, "1Gi")).create();
    PersistentVolumeClaim bound = awaitBound(client, claim);
    PersistentVolume pv = client.persistentVolumes().withName(bound.getSpec().getVolumeName()).get();
    Path dir = Path.of(pv.getSpec().getHostPath().getPath());
    assertThat(dir).isDirectory();

    runToCompletion(client, "writer-" + storageClass, claim,
        "echo hello > $DRUID_POD_ROOT/data/file && echo written");
    assertThat(dir.resolve("file")).hasContent("hello");
    runToCompletion(client, "reader-" + storageClass, claim,
        "test \"$(cat $DRUID_POD_ROOT/data/file)\" = hello");

    client.persistentVolumeClaims().withName(claim).delete();
    await().atMost(TestPods.TIMEOUT).until(() ->
        client.persistentVolumes().withName(pv.getMetadata().getName()).get() == null
            && !Files.exists(dir));
  }

  @Test
  void expandableClaimGrowsAfterTheNextPodStart(KubernetesClient client) {
    client.persistentVolumeClaims().resource(claim("grow", "expandable", "1Gi")).create();
    awaitBound(client, "grow");

    client.persistentVolumeClaims().withName("grow").edit(p -> {
      p.getSpec().getResources().getRequests().put("storage", new Quantity("2Gi"));
      return p;
    });
    PersistentVolumeClaim pending = client.persistentVolumeClaims().withName("grow")
        .waitUntilCondition(VolumeExpansion::hasPendingResize, 30, TimeUnit.SECONDS);
    assertThat(client.persistentVolumes().withName(pending.getSpec().getVolumeName()).get()
        .getSpec().getCapacity().get("storage")).isEqualTo(new Quantity("2Gi"));
    assertThat(pending.getStatus().getCapacity().get("storage")).isEqualTo(new Quantity("1Gi"));

    runToCompletion(client, "user", "grow", "true");

    PersistentVolumeClaim grown = client.persistentVolumeClaims().withName("grow")
        .waitUntilCondition(p -> !VolumeExpansion.hasPendingResize(p), 30, TimeUnit.SECONDS);
    assertThat(grown.getStatus().getCapacity().get("storage")).isEqualTo(new Quantity("2Gi"));
  }

  @Test
  void configMapsSecretsAndTheServiceAccountTokenAreFiles(KubernetesClient client,
      LocalCluster cluster, TestNamespace ns) {
    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("conf")
        .endMetadata().addToData("a.yaml", "x: 1").addToData("b", "bee").build()).create();
    client.secrets().resource(new SecretBuilder().withNewMetadata().withName("creds")
        .endMetadata().addToStringData("password", "s3cret").build()).create();
    Pod pod = TestPods.shell("mounts", "cd $DRUID_POD_ROOT && cat etc/conf/a.yaml etc/creds/pw; echo;"
        + " test -s $KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN && echo TOKEN;"
        + " curl -sf --cacert $KUBERNETES_CERTS_CA_FILE"
        + " -H \"Authorization: Bearer $(cat var/run/secrets/kubernetes.io/serviceaccount/token)\""
        + " https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT/version >/dev/null"
        + " && echo API")
        .editSpec().withRestartPolicy("Never")
        .addNewVolume().withName("conf").withNewConfigMap().withName("conf")
        .addNewItem().withKey("a.yaml").withPath("a.yaml").endItem().endConfigMap().endVolume()
        .addNewVolume().withName("creds").withNewSecret().withSecretName("creds")
        .addNewItem().withKey("password").withPath("pw").endItem().endSecret().endVolume()
        .editFirstContainer()
        .addNewVolumeMount().withName("conf").withMountPath("/etc/conf").endVolumeMount()
        .addNewVolumeMount().withName("creds").withMountPath("/etc/creds").endVolumeMount()
        .endContainer().endSpec().build();
    client.pods().resource(pod).create();

    awaitSucceeded(client, "mounts");
    assertThat(TestPods.log(cluster, ns.name(), "mounts"))
        .contains("x: 1s3cret").contains("TOKEN").contains("API");
  }

  private static void runToCompletion(KubernetesClient client, String name, String claim,
      String script) {
    client.pods().resource(TestPods.shell(name, script)
        .editSpec().withRestartPolicy("Never")
        .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName(claim)
        .endPersistentVolumeClaim().endVolume()
        .editFirstContainer().addNewVolumeMount().withName("data").withMountPath("/data")
        .endVolumeMount().endContainer().endSpec().build()).create();
    awaitSucceeded(client, name);
    client.pods().withName(name).delete();
    client.pods().withName(name).waitUntilCondition(p -> p == null, 30, TimeUnit.SECONDS);
  }

  private static void awaitSucceeded(KubernetesClient client, String name) {
    Pod pod = client.pods().withName(name).waitUntilCondition(p -> p.getStatus() != null
        && ("Succeeded".equals(p.getStatus().getPhase())
            || "Failed".equals(p.getStatus().getPhase())), 60, TimeUnit.SECONDS);
    assertThat(pod.getStatus().getPhase()).as(name).isEqualTo("Succeeded");
  }

  private static PersistentVolumeClaim awaitBound(KubernetesClient client, String name) {
    return client.persistentVolumeClaims().withName(name).waitUntilCondition(p ->
        p.getStatus() != null && "Bound".equals(p.getStatus().getPhase()), 30, TimeUnit.SECONDS);
  }

  private static PersistentVolumeClaim claim(String name, String storageClass, String size) {
    return new PersistentVolumeClaimBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withStorageClassName(storageClass).withAccessModes("ReadWriteOnce")
        .withNewResources().addToRequests("storage", new Quantity(size)).endResources()
        .endSpec().build();
  }
}
