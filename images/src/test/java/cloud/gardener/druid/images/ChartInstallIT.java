package cloud.gardener.druid.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.helm.Helm;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import cloud.gardener.druid.testenv.node.DruidImage;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The proof: {@code helm install} of the chart into the local control plane; the operator runs
 * from the OCI image (runc) as the chart's ServiceAccount, so the chart's RBAC is all it has;
 * an Etcd becomes a ready 3-member cluster whose members run from the same image; a rollout
 * completes (the authorizer confirms the ServiceAccount may not list Secrets outside its
 * namespaces, escalate or bind roles, nor act outside its namespaces); {@code helm upgrade} of a value rolls the operator and no member; {@code helm
 * uninstall} keeps the Etcd's volumes and backups.
 */
@LocalKubernetes
class ChartInstallIT {

  private static final Duration LONG = Duration.ofMinutes(10);
  private static final String RELEASE = "druid";

  @Test
  void installRunUpgradeUninstall(KubernetesClient client, LocalCluster cluster, TestNamespace ns)
      throws IOException {
    try {
      installRunUpgradeUninstallSteps(client, cluster, ns);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(e.getMessage() + PodLogs.tails(cluster, ns.name()), e);
    }
  }

  private void installRunUpgradeUninstallSteps(KubernetesClient client, LocalCluster cluster,
      TestNamespace ns) throws IOException {
    Path store = Files.createDirectories(cluster.workDir().resolve("local-store"));
    Helm helm = new Helm(cluster.workDir().resolve("helm"), cluster.kubeconfig());
    String repository = DruidImage.DEFAULT_IMAGE.substring(0, DruidImage.DEFAULT_IMAGE.lastIndexOf(':'));
    List<String> values = List.of("--set", "image.repository=" + repository,
        "--set", "image.tag=it", "--set", "replicas=1",
        "--set", "localStoreRoot=" + store,
        "--set", "clusterWide=false", "--set", "watchNamespaces={" + ns.name() + "}");

    helm.run(concat(List.of("install", RELEASE, Helm.chart().toString(), "-n", ns.name(),
        "--wait", "--timeout", "10m"), values)).orThrow();
    Pod operator = operatorPod(client);
    assertThat(operator.getSpec().getServiceAccountName()).isEqualTo("druid-etcd-druid");
    assertThat(runcContainers(cluster)).anyMatch(id -> id.contains(operator.getMetadata().getName()));
    assertThat(helm.run("test", RELEASE, "-n", ns.name(), "--timeout", "5m").orThrow().output())
        .contains("Phase:          Succeeded");
    assertLeastPrivilege(client, ns.name());

    Etcd etcd = Serialization.unmarshal(Files.readString(
        Path.of(System.getProperty("druid.repoRoot"), "examples", "etcd-3-local.yaml")), Etcd.class);
    etcd.getMetadata().setNamespace(ns.name());
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/etcd-main");
    client.resource(etcd).create();
    awaitRollout(client, "etcd-main");
    assertThat(runcContainers(cluster)).filteredOn(id -> id.contains("etcd-main-")).hasSize(3);

    Map<String, String> beforeRollout = memberUids(client);
    edit(client, "etcd-main", e -> e.getSpec().getAnnotations().put("example.com/rollout", "2"));
    awaitRollout(client, "etcd-main");
    assertThat(memberUids(client)).as("an annotation is applied in place, under the chart's"
        + " rules").isEqualTo(beforeRollout);
    assertThat(client.pods().withName("etcd-main-0").get().getMetadata().getAnnotations())
        .containsEntry("example.com/rollout", "2");
    edit(client, "etcd-main", e -> e.getSpec().getEtcd().setQuota(new Quantity("4Gi")));
    awaitRollout(client, "etcd-main");
    assertThat(memberUids(client).values()).as("every member replaced by the rollout")
        .doesNotContainAnyElementsOf(beforeRollout.values());

    Map<String, String> members = memberUids(client);
    String before = operator.getMetadata().getUid();
    helm.run(concat(List.of("upgrade", RELEASE, Helm.chart().toString(), "-n", ns.name(),
        "--wait", "--timeout", "10m"), Stream.concat(values.stream(),
        Stream.of("--set", "jvm.options=-XX:MaxRAMPercentage=60 -XX:+UseSerialGC")).toList()))
        .orThrow();
    await().atMost(LONG).ignoreExceptions().until(() -> {
      Pod now = operatorPod(client);
      return !now.getMetadata().getUid().equals(before) && Boolean.TRUE.equals(now.getStatus()
          .getContainerStatuses().get(0).getReady());
    });
    assertThat(memberUids(client)).as("members untouched by the operator's upgrade")
        .isEqualTo(members);
    assertThat(RolloutCompletion.isComplete(client.resources(Etcd.class).withName("etcd-main").get()))
        .isTrue();

    List<String> pvcs = client.persistentVolumeClaims().list().getItems().stream()
        .map(p -> p.getMetadata().getName()).sorted().toList();
    assertThat(pvcs).hasSize(3);
    helm.run("uninstall", RELEASE, "-n", ns.name(), "--wait", "--timeout", "5m").orThrow();
    await().atMost(LONG).until(() -> client.apps().deployments().list().getItems().isEmpty());
    assertThat(client.persistentVolumeClaims().list().getItems().stream()
        .map(p -> p.getMetadata().getName()).sorted().toList()).isEqualTo(pvcs);
    try (Stream<Path> files = Files.walk(store)) {
      assertThat(files.map(f -> f.getFileName().toString())).anyMatch(n -> n.startsWith("Full-"));
    }
  }

  /**
   * What the API server's authorizer answers for the operator's ServiceAccount, the identity
   * the operator pod runs as: what it needs is granted (list and watch of Secrets in its
   * namespaces, for the informer of the Secrets it owns); granting itself more (escalate,
   * bind) and anything outside its namespaces is not.
   */
  private static void assertLeastPrivilege(KubernetesClient client, String ns) {
    String sa = "system:serviceaccount:" + ns + ":druid-etcd-druid";
    assertThat(allowed(client, sa, ns, "", "secrets", "get")).isTrue();
    assertThat(allowed(client, sa, ns, "", "pods", "create")).isTrue();
    assertThat(allowed(client, sa, ns, "rbac.authorization.k8s.io", "roles", "create")).isTrue();
    assertThat(allowed(client, sa, "default", "", "secrets", "get"))
        .as("secrets outside the watched namespaces").isFalse();
    assertThat(allowed(client, sa, null, "", "secrets", "list"))
        .as("list secrets cluster-wide").isFalse();
    assertThat(allowed(client, sa, ns, "rbac.authorization.k8s.io", "roles", "escalate"))
        .as("escalate roles").isFalse();
    assertThat(allowed(client, sa, ns, "rbac.authorization.k8s.io", "roles", "bind"))
        .as("bind roles").isFalse();
    assertThat(allowed(client, sa, null, "rbac.authorization.k8s.io", "clusterroles", "create"))
        .as("create cluster roles").isFalse();
    assertThat(allowed(client, sa, "default", "", "pods", "create"))
        .as("pods outside the watched namespaces").isFalse();
  }

  private static boolean allowed(KubernetesClient client, String user, String namespace,
      String group, String resource, String verb) {
    var review = client.authorization().v1().subjectAccessReview().create(
        new io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder()
            .withNewSpec().withUser(user)
            .withGroups("system:serviceaccounts", "system:serviceaccounts:" + user.split(":")[2],
                "system:authenticated")
            .withNewResourceAttributes().withNamespace(namespace).withGroup(group)
              .withResource(resource).withVerb(verb).endResourceAttributes()
            .endSpec().build());
    return Boolean.TRUE.equals(review.getStatus().getAllowed());
  }

  private static Pod operatorPod(KubernetesClient client) {
    List<Pod> pods = client.pods().withLabel("app.kubernetes.io/instance", RELEASE).list()
        .getItems().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    assertThat(pods).hasSize(1);
    return pods.get(0);
  }

  private static Map<String, String> memberUids(KubernetesClient client) {
    return client.pods().withLabel(Labels.MEMBER_ORDINAL).list().getItems()
        .stream().collect(Collectors.toMap(p -> p.getMetadata().getName(),
            p -> p.getMetadata().getUid()));
  }

  private static void edit(KubernetesClient client, String name, Consumer<Etcd> change) {
    await().atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() -> {
      client.resources(Etcd.class).withName(name).edit(e -> {
        change.accept(e);
        return e;
      });
      return true;
    });
  }

  private static void awaitRollout(KubernetesClient client, String name) {
    await().atMost(LONG).pollInterval(Duration.ofSeconds(1)).ignoreExceptions().until(() ->
        RolloutCompletion.isComplete(client.resources(Etcd.class).withName(name).get()));
  }

  /** Ids of the containers runc runs for this cluster's node. */
  static List<String> runcContainers(LocalCluster cluster) {
    try {
      Process p = new ProcessBuilder("runc", "--root", cluster.workDir().resolve("runc").toString(),
          "list", "-q").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      p.waitFor();
      return out.lines().toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String[] concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }
}
