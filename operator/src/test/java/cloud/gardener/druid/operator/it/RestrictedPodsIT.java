package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.operator.model.PodSecurity;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pod Security {@code restricted}, enforced by the kube-apiserver's built-in PodSecurity
 * admission on the test namespace: a 3-member Etcd (S3 store on s3proxy: a Local store needs
 * a hostPath volume, which {@code restricted} and {@code baseline} refuse) is admitted and
 * becomes ready, and an EtcdCopyBackupsTask's Job pod is admitted and copies its backup; no
 * log of the cluster holds the store secret's key.
 */
@WithOperator
class RestrictedPodsIT {

  private static final String BUCKET = "etcd-backups";
  private static final String ACCESS = "restricted-access";
  private static final String SECRET = "restricted-secret-key";

  /** Runs before the operator stops. */
  @AfterAll
  static void deleteTasks(KubernetesClient client) {
    client.resources(EtcdCopyBackupsTask.class).delete();
  }

  @Test
  void membersAndCopyJobsRunInARestrictedNamespace(KubernetesClient client, TestNamespace ns,
      LocalCluster cluster, @TempDir Path work) throws Exception {
    client.namespaces().withName(ns.name()).edit(n -> {
      n.getMetadata().getLabels().put("pod-security.kubernetes.io/enforce", "restricted");
      n.getMetadata().getLabels().put("pod-security.kubernetes.io/enforce-version", "latest");
      return n;
    });
    assertThatThrownBy(() -> client.pods().resource(new PodBuilder().withNewMetadata()
        .withName("unrestricted").endMetadata().withNewSpec().addNewContainer().withName("c")
        .withImage("druid-test/shell").endContainer().endSpec().build()).create())
        .as("the namespace enforces restricted: a pod without a security context is refused")
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("violates PodSecurity \"restricted:latest\"");

    Properties properties = new Properties();
    properties.setProperty("jclouds.filesystem.basedir",
        Files.createDirectories(work.resolve("blobs")).toString());
    try (BlobStoreContext blobs = ContextBuilder.newBuilder("filesystem").overrides(properties)
        .build(BlobStoreContext.class)) {
      S3Proxy s3 = S3Proxy.builder().blobStore(blobs.getBlobStore())
          .endpoint(URI.create("http://127.0.0.1:0"))
          .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS, SECRET).build();
      s3.start();
      try {
        await().atMost(Duration.ofSeconds(30)).until(() -> "STARTED".equals(s3.getState()));
        blobs.getBlobStore().createContainerInLocation(null, BUCKET);
        String endpoint = "http://127.0.0.1:" + s3.getPort();
        client.resource(new SecretBuilder().withNewMetadata().withName("s3-store").endMetadata()
            .addToStringData("accessKeyID", ACCESS).addToStringData("secretAccessKey", SECRET)
            .addToStringData("region", "eu-west-1").build()).create();

        String prefix = ns.name() + "/etcd-main";
        Etcd etcd = load("etcd-3-local.yaml", ns.name());
        etcd.getSpec().getBackup().setStore(s3(endpoint, prefix));
        client.resource(etcd).create();
        awaitRolloutComplete(client, "etcd-main", Duration.ofMinutes(5));
        List<Pod> members = ItSupport.pods(client, "etcd-main");
        assertThat(members).hasSize(3).allSatisfy(p -> {
          assertThat(p.getSpec().getSecurityContext()).isEqualTo(PodSecurity.pod(false));
          assertThat(p.getSpec().getContainers().get(0).getSecurityContext())
              .isEqualTo(PodSecurity.container(false));
        });
        await().atMost(Duration.ofMinutes(2)).until(() -> !fullSnapshots(blobs, prefix).isEmpty());

        EtcdCopyBackupsTask task = CopyBackupsTaskIT.task("copy-restricted", s3(endpoint, prefix),
            s3(endpoint, prefix + "-copy"));
        task.getSpec().setMaxBackups(1);
        client.resource(task).create();
        await().atMost(Duration.ofMinutes(3))
            .until(() -> CopyBackupsTaskIT.succeeded(client, "copy-restricted") != null);
        assertThat(fullSnapshots(blobs, prefix + "-copy")).isNotEmpty();
        Pod copyPod = client.pods().withLabel("job-name", "copy-restricted-worker").list()
            .getItems().get(0);
        assertThat(copyPod.getSpec().getSecurityContext().getRunAsUser())
            .isEqualTo(PodSecurity.NON_ROOT);
        try (Stream<Path> logs = Files.walk(cluster.workDir().resolve("logs"))) {
          assertThat(logs.filter(Files::isRegularFile).filter(f -> contains(f, SECRET)))
              .as("no log holds the store secret's key").isEmpty();
        }
      } finally {
        s3.stop();
      }
    }
  }

  private static boolean contains(Path file, String value) {
    try {
      return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1)
          .contains(value);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static StoreSpec s3(String endpoint, String prefix) {
    StoreSpec store = CopyBackupsTaskIT.store(StorageProvider.S3, BUCKET, prefix);
    store.setEndpointOverride(endpoint);
    store.setSecretRef(new SecretReference("s3-store", null));
    return store;
  }

  private static List<String> fullSnapshots(BlobStoreContext blobs, String prefix) {
    return blobs.getBlobStore().list(BUCKET, ListContainerOptions.Builder
            .prefix(prefix + "/").recursive()).stream()
        .map(StorageMetadata::getName)
        .filter(n -> n.substring(n.lastIndexOf('/') + 1).startsWith("Full-")).toList();
  }
}
