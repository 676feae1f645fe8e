package cloud.gardener.druid.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.webhook.WebhookSettings;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Upstream's component protection webhook against the real kube-apiserver: the operator serves
 * it with its own certificate and registers it; a {@code kubectl edit}-style change of the
 * Etcd's ConfigMap or a deletion of its member pod by another identity (a service account
 * with RBAC rights to do both) is refused, naming the annotation that lifts the protection;
 * the same identity may change an object the operator does not manage; the operator's own
 * changes (a spec change rewrites the ConfigMap and restarts the member) pass; with upstream's
 * annotation {@code druid.gardener.cloud/disable-etcd-component-protection} the change passes.
 */
@LocalKubernetes
class ComponentProtectionIT {

  static final Duration ROLLOUT = Duration.ofMinutes(3);

  @Test
  void changesOfManagedObjectsByOthersAreRefusedTheOperatorsPassAndTheAnnotationLiftsIt(
      LocalCluster cluster, TestNamespace ns) throws Exception {
    KubernetesClient client = cluster.newClient(null);
    CrdInstaller.install(client, "etcd-druid-tests");
    Path stores = Files.createDirectories(cluster.workDir().resolve("stores").resolve(ns.name()));
    String configuration = "etcd-druid-protection-" + ns.name();
    EtcdOperator operator = new EtcdOperator(client, new EtcdOperator.Options(Set.of(ns.name()),
        true, false, null, new OperatorSettings(OperatorSettings.DEFAULT_IMAGE,
            stores.toString())));
    operator.protectComponents(new WebhookSettings(configuration, "127.0.0.1", 0,
        Optional.empty(), Optional.of("127.0.0.1"), Set.of()));
    try (client; operator) {
      operator.start();
      Etcd etcd = ItSupport.load("etcd-1-local.yaml", ns.name());
      etcd.getMetadata().setName("guarded");
      etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/guarded");
      client.resource(etcd).create();
      awaitRollout(client, ns, 1);
      EtcdNames names = EtcdNames.of(etcd);

      try (KubernetesClient intruder = intruder(client, ns)) {
        assertThatThrownBy(() -> intruder.configMaps().inNamespace(ns.name())
            .withName(names.configMap()).edit(c -> {
              c.getData().put("extra", "by hand");
              return c;
            }))
            .isInstanceOf(KubernetesClientException.class)
            .hasMessageContaining("denied the request")
            .hasMessageContaining(Annotations.DISABLE_COMPONENT_PROTECTION);
        assertThatThrownBy(() -> intruder.pods().inNamespace(ns.name())
            .withName(names.member(0)).delete())
            .isInstanceOf(KubernetesClientException.class)
            .hasMessageContaining(Annotations.DISABLE_COMPONENT_PROTECTION);
        assertThat(client.pods().inNamespace(ns.name()).withName(names.member(0)).get()
            .getMetadata().getDeletionTimestamp()).as("the member pod is untouched").isNull();
        client.configMaps().inNamespace(ns.name()).resource(new ConfigMapBuilder()
            .withNewMetadata().withName("not-managed").endMetadata()
            .addToData("a", "1").build()).create();
        intruder.configMaps().inNamespace(ns.name()).withName("not-managed").edit(c -> {
          c.getData().put("a", "2");
          return c;
        });

        String podUid = uid(client, ns, names.member(0));
        long generation = EtcdEdits.edit(client, ns.name(), "guarded",
            e -> e.getSpec().getEtcd().setSnapshotCount(20_000L)).getMetadata().getGeneration();
        awaitRollout(client, ns, generation);
        assertThat(client.configMaps().inNamespace(ns.name()).withName(names.configMap()).get()
            .getData().get("etcd.conf.yaml")).as("the operator rewrote its ConfigMap")
            .contains("snapshot-count: 20000");
        assertThat(uid(client, ns, names.member(0))).as("and restarted its member")
            .isNotEqualTo(podUid);

        EtcdEdits.edit(client, ns.name(), "guarded", e -> {
          if (e.getMetadata().getAnnotations() == null) {
            e.getMetadata().setAnnotations(new HashMap<>());
          }
          e.getMetadata().getAnnotations().put(Annotations.DISABLE_COMPONENT_PROTECTION, "");
        });
        intruder.configMaps().inNamespace(ns.name()).withName(names.configMap()).edit(c -> {
          c.getData().put("extra", "by hand");
          return c;
        });
        assertThat(client.configMaps().inNamespace(ns.name()).withName(names.configMap()).get()
            .getData()).as("the annotation lifts the protection").containsKey("extra");
      }
    } finally {
      try (KubernetesClient admin = cluster.newClient(null)) {
        admin.admissionRegistration().v1().validatingWebhookConfigurations()
            .withName(configuration).delete();
      }
    }
  }

  private static void awaitRollout(KubernetesClient client, TestNamespace ns, long generation) {
    await().atMost(ROLLOUT).ignoreExceptions().until(() -> {
      Etcd now = client.resources(Etcd.class).inNamespace(ns.name()).withName("guarded").get();
      return now.getStatus().getObservedGeneration() >= generation
          && RolloutCompletion.isComplete(now);
    });
  }

  private static String uid(KubernetesClient client, TestNamespace ns, String pod) {
    Pod found = client.pods().inNamespace(ns.name()).withName(pod).get();
    return found.getMetadata().getUid();
  }

  /**
   * A service account allowed by RBAC to edit and delete ConfigMaps and pods in the namespace,
   * as a person with {@code edit} rights would be; its client authenticates with its token.
   */
  private static KubernetesClient intruder(KubernetesClient admin, TestNamespace ns) {
    admin.serviceAccounts().inNamespace(ns.name()).resource(new ServiceAccountBuilder()
        .withNewMetadata().withName("intruder").endMetadata().build()).create();
    admin.rbac().roles().inNamespace(ns.name()).resource(new RoleBuilder().withNewMetadata()
        .withName("intruder").endMetadata().addNewRule().withApiGroups("")
        .withResources("configmaps", "pods").withVerbs("get", "list", "update", "patch", "delete")
        .endRule().build()).create();
    admin.rbac().roleBindings().inNamespace(ns.name()).resource(new RoleBindingBuilder()
        .withNewMetadata().withName("intruder").endMetadata().withNewRoleRef()
        .withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName("intruder")
        .endRoleRef().addNewSubject().withKind("ServiceAccount").withName("intruder")
        .withNamespace(ns.name()).endSubject().build()).create();
    String token = admin.serviceAccounts().inNamespace(ns.name()).withName("intruder")
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L)
            .endSpec().build()).getStatus().getToken();
    Config base = admin.getConfiguration();
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(base.getMasterUrl())
        .withCaCertData(base.getCaCertData()).withCaCertFile(base.getCaCertFile())
        .withOauthToken(token).withNamespace(ns.name()).build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
