package cloud.gardener.druid.testenv.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The generated CRDs on the real API server: validation, SSA, status, generation, GC. */
@LocalKubernetes
class DruidCrdIT {

  private static final String API = "druid.gardener.cloud/v1alpha1";

  @BeforeAll
  static void installCrds(KubernetesClient client) {
    DruidResources.installCrds(client);
  }

  @Test
  void everyExampleIsAccepted(KubernetesClient client, TestNamespace ns) throws IOException {
    List<Path> examples;
    try (Stream<Path> files = Files.list(ControlPlaneBinaries.repoRoot().resolve("examples"))) {
      examples = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    assertThat(examples).hasSizeGreaterThanOrEqualTo(5);
    for (Path example : examples) {
      GenericKubernetesResource resource = load(example);
      resource.getMetadata().setName(resource.getMetadata().getName() + "-"
          + example.getFileName().toString().replace(".yaml", ""));
      resource.getMetadata().setNamespace(ns.name());
      assertThat(resources(client, resource.getKind()).resource(resource).create())
          .as(example.toString()).isNotNull();
    }
  }

  @Test
  void invalidEtcdsAreRejectedNamingTheField(KubernetesClient client) throws IOException {
    assertRejected(client, etcd("neg", s -> s.put("replicas", -1)), "spec.replicas");
    assertRejected(client, etcd("cron", s -> backup(s).put("fullSnapshotSchedule", "every hour")),
        "spec.backup.fullSnapshotSchedule");
    assertRejected(client, etcd("qty", s -> s.put("storageCapacity", "lots")),
        "spec.storageCapacity");
    assertRejected(client, etcd("maxq", s -> etcdConfig(s).put("capacity",
        Map.of("maxQuota", "4Gi"))), "spec.etcd.capacity.maxQuota");
    assertRejected(client, etcd("frag", s -> etcdConfig(s).put("capacity",
        Map.of("fragmentationPercent", 5))), "spec.etcd.capacity.fragmentationPercent");
    assertRejected(client, etcd("within", s -> etcdConfig(s).put("capacity",
        Map.of("defragmentWithin", "soon"))), "spec.etcd.capacity.defragmentWithin");
    GenericKubernetesResource raised = etcd("maxq-ok", s -> etcdConfig(s).put("capacity",
        Map.of("maxQuota", "16Gi", "compactOnNoSpace", true)));
    assertThat(resources(client, "Etcd").resource(raised).create()).as("maxQuota above quota")
        .isNotNull();
    resources(client, "Etcd").resource(raised).delete();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> etcdConfig(Map<String, Object> spec) {
    return (Map<String, Object>) spec.get("etcd");
  }

  @Test
  void memberNamePrefixIsImmutable(KubernetesClient client) throws IOException {
    GenericKubernetesResource etcd = etcd("prefix", s -> s.put("memberNamePrefix", "one"));
    resources(client, "Etcd").resource(etcd).create();

    assertThatThrownBy(() -> resources(client, "Etcd").withName("prefix").edit(e -> {
      spec(e).put("memberNamePrefix", "two");
      return e;
    })).isInstanceOf(KubernetesClientException.class).hasMessageContaining("spec.memberNamePrefix");
  }

  @Test
  void opsTaskWithTwoOperationsOrAChangedEtcdNameIsRejected(KubernetesClient client)
      throws IOException {
    GenericKubernetesResource twoOps = load(example("opstask-defragment.yaml"));
    twoOps.getMetadata().setName("two-ops");
    twoOps.getMetadata().setNamespace(null);
    config(twoOps).put("onDemandSnapshot", Map.of("type", "full"));
    assertRejected(client, twoOps, "spec.config");

    GenericKubernetesResource task = load(example("opstask-defragment.yaml"));
    task.getMetadata().setName("renamed");
    task.getMetadata().setNamespace(null);
    resources(client, "EtcdOpsTask").resource(task).create();
    assertThatThrownBy(() -> resources(client, "EtcdOpsTask").withName("renamed").edit(t -> {
      spec(t).put("etcdName", "another");
      return t;
    })).isInstanceOf(KubernetesClientException.class).hasMessageContaining("spec.etcdName");
  }

  @Test
  void serverSideApplyTracksManagersAndReportsConflicts(KubernetesClient client)
      throws IOException {
    GenericKubernetesResource etcd = etcd("ssa", s -> { });
    resources(client, "Etcd").resource(etcd).fieldManager("alice").serverSideApply();
    GenericKubernetesResource bobs = etcd("ssa", s -> s.put("replicas", 5));

    PatchContext withoutForce = new PatchContext.Builder()
        .withPatchType(PatchType.SERVER_SIDE_APPLY).withFieldManager("bob").withForce(false)
        .build();
    assertThatThrownBy(() -> resources(client, "Etcd").withName("ssa").patch(withoutForce, bobs))
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(409));

    GenericKubernetesResource applied = resources(client, "Etcd").resource(bobs)
        .fieldManager("bob").forceConflicts().serverSideApply();
    assertThat(spec(applied).get("replicas")).isEqualTo(5);
    assertThat(applied.getMetadata().getManagedFields()).extracting(ManagedFieldsEntry::getManager)
        .contains("alice", "bob");
  }

  @Test
  void statusIsASubresourceAndOnlySpecChangesBumpTheGeneration(KubernetesClient client)
      throws IOException {
    GenericKubernetesResource created = resources(client, "Etcd")
        .resource(etcd("gen", s -> { })).create();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
    Resource<GenericKubernetesResource> etcd = resources(client, "Etcd").withName("gen");

    GenericKubernetesResource withStatus = etcd.editStatus(e -> {
      e.setAdditionalProperty("status", Map.of("observedGeneration", 1, "replicas", 1));
      return e;
    });
    assertThat(withStatus.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(status(withStatus)).containsEntry("observedGeneration", 1);

    GenericKubernetesResource relabeled = etcd.edit(e -> {
      e.getMetadata().setLabels(Map.of("touched", "yes"));
      e.setAdditionalProperty("status", Map.of("observedGeneration", 7));
      return e;
    });
    assertThat(relabeled.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(status(relabeled)).containsEntry("observedGeneration", 1);

    GenericKubernetesResource scaled = etcd.edit(e -> {
      spec(e).put("replicas", 3);
      return e;
    });
    assertThat(scaled.getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void dependentsOfADeletedEtcdAreGarbageCollected(KubernetesClient client) throws IOException {
    GenericKubernetesResource owner = resources(client, "Etcd").resource(etcd("owner", s -> { }))
        .create();
    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("owned")
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(API).withKind("Etcd")
            .withName("owner").withUid(owner.getMetadata().getUid()).withController(true)
            .withBlockOwnerDeletion(true).build())
        .endMetadata().addToData("k", "v").build()).create();

    resources(client, "Etcd").withName("owner").delete();

    // the garbage collector learns new resource types within its 30 s discovery resync
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() ->
        client.configMaps().withName("owned").get() == null);
  }

  /**
   * etcd's downgrade lowers the cluster version at once, while the members still run the newer
   * etcd: a second step down then would start etcd two minors below a member's database.
   * Once the downgrade is done (etcd clears its target when every member runs it), it may.
   */
  @Test
  void etcdVersionMovesOneMinorFromWhatEachMemberRuns(KubernetesClient client)
      throws IOException {
    resources(client, "Etcd").resource(etcd("minors", s -> etcdSection(s).put("version", "3.7")))
        .create();
    Resource<GenericKubernetesResource> etcd = resources(client, "Etcd").withName("minors");
    etcd.edit(e -> withVersion(e, "3.6"));
    etcd.editStatus(e -> withStatus(e, "3.6", "3.6.0", "3.7.4", "3.6.16"));

    assertThatThrownBy(() -> etcd.edit(e -> withVersion(e, "3.5")))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.etcd.version")
        .hasMessageContaining("etcd is downgrading to 3.6 while members still run the newer"
            + " etcd; 3.5 would be two minors below them");

    etcd.editStatus(e -> withStatus(e, null, "3.6.0", "3.6.16", "3.6.16"));
    assertThat(etcdSection(spec(etcd.edit(e -> withVersion(e, "3.5")))))
        .containsEntry("version", "3.5");
  }

  private static GenericKubernetesResource withVersion(GenericKubernetesResource etcd,
      String minor) {
    etcdSection(spec(etcd)).put("version", minor);
    return etcd;
  }

  private static GenericKubernetesResource withStatus(GenericKubernetesResource etcd,
      String downgradeTarget, String clusterVersion, String... memberVersions) {
    List<Map<String, Object>> members = new java.util.ArrayList<>();
    for (int i = 0; i < memberVersions.length; i++) {
      members.add(Map.of("name", "minors-" + i, "etcdVersion", memberVersions[i]));
    }
    Map<String, Object> status = new java.util.HashMap<>(Map.of("etcdClusterVersion",
        clusterVersion, "members", members));
    if (downgradeTarget != null) {
      status.put("etcdDowngradeTarget", downgradeTarget);
    }
    etcd.setAdditionalProperty("status", status);
    return etcd;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> etcdSection(Map<String, Object> spec) {
    return (Map<String, Object>) spec.computeIfAbsent("etcd",
        k -> new java.util.LinkedHashMap<String, Object>());
  }

  private static void assertRejected(KubernetesClient client, GenericKubernetesResource resource,
      String field) {
    assertThatThrownBy(() -> resources(client, resource.getKind()).resource(resource).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
        .hasMessageContaining(field);
  }

  private static io.fabric8.kubernetes.client.dsl.MixedOperation<GenericKubernetesResource,
      io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> resources(KubernetesClient client, String kind) {
    String apiVersion = kind.startsWith("Etcd") ? API : "v1";
    return client.genericKubernetesResources(apiVersion, kind);
  }

  private static GenericKubernetesResource etcd(String name, Consumer<Map<String, Object>> edit)
      throws IOException {
    GenericKubernetesResource etcd = load(example("etcd-1-local.yaml"));
    etcd.getMetadata().setName(name);
    etcd.getMetadata().setNamespace(null);
    edit.accept(spec(etcd));
    return etcd;
  }

  private static Path example(String file) {
    return ControlPlaneBinaries.repoRoot().resolve("examples").resolve(file);
  }

  private static GenericKubernetesResource load(Path file) throws IOException {
    return Serialization.unmarshal(Files.readString(file), GenericKubernetesResource.class);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource resource) {
    return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(GenericKubernetesResource resource) {
    return (Map<String, Object>) resource.getAdditionalProperties().get("status");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> backup(Map<String, Object> spec) {
    return (Map<String, Object>) spec.get("backup");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> config(GenericKubernetesResource task) {
    return (Map<String, Object>) spec(task).get("config");
  }
}
