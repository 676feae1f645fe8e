package cloud.gardener.druid.testenv.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.api.Crds;
import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** The druid CRDs on a real API server, and resources built from the examples, for the ITs. */
final class DruidResources {

  static final String API = "druid.gardener.cloud/v1alpha1";

  private DruidResources() {
  }

  static void installCrds(KubernetesClient client) {
    for (CustomResourceDefinition crd : Crds.all()) {
      client.apiextensions().v1().customResourceDefinitions().resource(crd).serverSideApply();
    }
    for (CustomResourceDefinition crd : Crds.all()) {
      client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
          .waitUntilCondition(c -> c.getStatus() != null && c.getStatus().getConditions().stream()
              .anyMatch(s -> "Established".equals(s.getType()) && "True".equals(s.getStatus())),
              30, TimeUnit.SECONDS);
    }
  }

  static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> resources(KubernetesClient client, String kind) {
    String apiVersion = kind.startsWith("Etcd") ? API : "v1";
    return client.genericKubernetesResources(apiVersion, kind);
  }

  /** An example manifest with another name, in the client's namespace, edited. */
  static GenericKubernetesResource example(String file, String name,
      Consumer<Map<String, Object>> editSpec) {
    GenericKubernetesResource resource = load(examplePath(file));
    resource.getMetadata().setName(name);
    resource.getMetadata().setNamespace(null);
    editSpec.accept(spec(resource));
    return resource;
  }

  static GenericKubernetesResource etcd(String name, Consumer<Map<String, Object>> editSpec) {
    return example("etcd-1-local.yaml", name, editSpec);
  }

  static Path examplePath(String file) {
    return ControlPlaneBinaries.repoRoot().resolve("examples").resolve(file);
  }

  static GenericKubernetesResource load(Path file) {
    try {
      return Serialization.unmarshal(Files.readString(file), GenericKubernetesResource.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Creates nothing: the API server validates and answers as for a create. */
  static GenericKubernetesResource dryRunCreate(KubernetesClient client,
      GenericKubernetesResource resource) {
    return resources(client, resource.getKind()).resource(resource).dryRun().create();
  }

  static void assertAdmitted(KubernetesClient client, GenericKubernetesResource resource) {
    assertThat(dryRunCreate(client, resource)).as(resource.getMetadata().getName()).isNotNull();
  }

  /** Refused with 422, the message naming {@code field} and containing every {@code words}. */
  static void assertRejected(KubernetesClient client, GenericKubernetesResource resource,
      String field, String... words) {
    assertThatThrownBy(() -> dryRunCreate(client, resource))
        .as(resource.getMetadata().getName())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
        .hasMessageContaining(field)
        .satisfies(e -> {
          for (String word : words) {
            assertThat(e).hasMessageContaining(word);
          }
        });
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> spec(GenericKubernetesResource resource) {
    return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Map<String, Object> parent, String key) {
    return (Map<String, Object>) parent.computeIfAbsent(key, k -> new java.util.LinkedHashMap<>());
  }
}
