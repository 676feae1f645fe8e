package cloud.gardener.druid.images;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.testenv.helm.Helm;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code helm lint} and {@code helm template} of the chart, by the real helm CLI. */
class ChartRenderIT {

  @TempDir
  Path home;

  @Test
  void lintPassesForTheDefaultsAndTheNamespacedMode() {
    Helm helm = new Helm(home, null);
    assertThat(helm.run("lint", "--strict", Helm.chart().toString()).orThrow().output())
        .contains("1 chart(s) linted, 0 chart(s) failed");
    assertThat(helm.run("lint", "--strict", Helm.chart().toString(), "--set", "clusterWide=false",
        "--set", "watchNamespaces={a,b}").orThrow().output()).contains("0 chart(s) failed");
  }

  @Test
  void defaultsRenderAClusterWideOperatorWithProbesPdbAndMetricsService() {
    Map<String, HasMetadata> objects = render("r1", "ns1");
    assertThat(objects.keySet()).contains("ServiceAccount/r1-etcd-druid",
        "ClusterRole/r1-etcd-druid", "ClusterRoleBinding/r1-etcd-druid",
        "Deployment/r1-etcd-druid", "PodDisruptionBudget/r1-etcd-druid",
        "Service/r1-etcd-druid-metrics", "Pod/r1-etcd-druid-test-readyz");
    Deployment d = (Deployment) objects.get("Deployment/r1-etcd-druid");
    assertThat(d.getMetadata().getLabels()).containsEntry("helm.sh/chart", "etcd-druid-0.1.0")
        .containsEntry("app.kubernetes.io/instance", "r1")
        .containsEntry("app.kubernetes.io/managed-by", "Helm");
    var pod = d.getSpec().getTemplate().getSpec();
    var c = pod.getContainers().get(0);
    assertThat(c.getImage()).endsWith("etcd-druid-jvm:0.1.0");
    assertThat(c.getArgs()).contains("operator", "--metrics-port=8081",
        "--leader-election-namespace=ns1", "--leader-election-lease-duration=30s",
        "--leader-election-renew-deadline=20s", "--leader-election-retry-period=8s");
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
    assertThat(pod.getServiceAccountName()).isEqualTo("r1-etcd-druid");
    Pod test = (Pod) objects.get("Pod/r1-etcd-druid-test-readyz");
    assertThat(test.getSpec().getContainers().get(0).getArgs()).containsExactly("ctl", "probe",
        "http://r1-etcd-druid-metrics.ns1.svc:8081/readyz");
    assertThat(test.getMetadata().getLabels()).as("outside the operator's selector")
        .doesNotContainEntry("app.kubernetes.io/instance", "r1");
  }

  /**
   * What the operator calls, by API group, resource and verb, and where: the chart must grant
   * exactly this (ChartInstallIT proves it is enough: the chart-installed operator runs an
   * Etcd under it).
   */
  static final List<String> OPERATOR_CALLS = List.of(
      // the reconcilers' informers; finalizers and the reconcile annotation
      // the Etcd a restoreInto task creates (time travel)
      "druid.gardener.cloud/etcds:get,list,watch,create,update,patch",
      "druid.gardener.cloud/etcdopstasks:get,list,watch,update,patch,delete", // TTL cleanup
      "druid.gardener.cloud/etcdcopybackupstasks:get,list,watch,update,patch",
      "druid.gardener.cloud/etcds/status:update,patch",
      "druid.gardener.cloud/etcdopstasks/status:update,patch",
      "druid.gardener.cloud/etcdcopybackupstasks/status:update,patch",
      // children carry ownerReferences with blockOwnerDeletion
      "druid.gardener.cloud/etcds/finalizers:update",
      "druid.gardener.cloud/etcdopstasks/finalizers:update",
      "druid.gardener.cloud/etcdcopybackupstasks/finalizers:update",
      // members: informer and observation (by label), created, labels and annotations patched
      // in place, deleted by name and by label on deletion of the Etcd; volumes the same but
      // applied (server-side apply)
      "/pods:list,watch,create,patch,delete,deletecollection",
      // a time travel Job's report from its pod's log when no termination message was kept
      "/pods/log:get",
      "/persistentvolumeclaims:list,watch,create,patch,delete,deletecollection",
      // components: informers (by label), applied, deleted
      "/services:list,watch,create,patch,delete",
      "/configmaps:list,watch,create,patch,delete",
      "/serviceaccounts:list,watch,create,patch,delete",
      "policy/poddisruptionbudgets:list,watch,create,patch,delete",
      "rbac.authorization.k8s.io/roles:list,watch,create,patch,delete",
      "rbac.authorization.k8s.io/rolebindings:list,watch,create,patch,delete",
      // referenced Secrets read by name; the agent API Secret written by name; the informer
      // of the operator's own Secrets (by label)
      "/secrets:get,list,watch,create,update,delete",
      "/events:create", // EventRecorder: one new Event per occurrence
      // member and snapshot leases (informer, applied, deleted), the leader election lease
      "coordination.k8s.io/leases:get,list,watch,create,update,patch,delete",
      // copy and compaction Jobs: informer, created, read back; finished compaction Jobs deleted
      "batch/jobs:get,list,watch,create,delete",
      // whether a class allows volume expansion (by name, or the default one); its informer
      "storage.k8s.io/storageclasses:get,list,watch");

  @Test
  void theOperatorsRulesAreExactlyWhatItCalls() {
    Map<String, HasMetadata> clusterWide = render("r", "ops");
    var clusterRole = (io.fabric8.kubernetes.api.model.rbac.ClusterRole)
        clusterWide.get("ClusterRole/r-etcd-druid");
    assertThat(permissions(clusterRole.getRules())).isEqualTo(listed(OPERATOR_CALLS));

    Map<String, HasMetadata> namespaced = render("r", "ops", "--set", "clusterWide=false",
        "--set", "watchNamespaces={team-a}");
    var role = (io.fabric8.kubernetes.api.model.rbac.Role) namespaced.get("Role/r-etcd-druid@team-a");
    var storage = (io.fabric8.kubernetes.api.model.rbac.ClusterRole)
        namespaced.get("ClusterRole/r-etcd-druid-ops-storageclasses");
    List<io.fabric8.kubernetes.api.model.rbac.PolicyRule> both =
        new java.util.ArrayList<>(role.getRules());
    both.addAll(storage.getRules());
    assertThat(permissions(both)).isEqualTo(listed(OPERATOR_CALLS));
    assertThat(permissions(storage.getRules())).as("cluster-wide: StorageClasses only")
        .allMatch(p -> p.startsWith("storage.k8s.io/storageclasses:"));
  }

  /** {@code group/resource:verb} for every pair a rule grants. */
  private static java.util.Set<String> permissions(
      List<io.fabric8.kubernetes.api.model.rbac.PolicyRule> rules) {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (var rule : rules) {
      assertThat(rule.getResourceNames()).isNullOrEmpty();
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          rule.getVerbs().forEach(v -> out.add(group + "/" + resource + ":" + v));
        }
      }
    }
    return out;
  }

  private static java.util.Set<String> listed(List<String> calls) {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (String call : calls) {
      String[] parts = call.split(":");
      Arrays.stream(parts[1].split(",")).forEach(v -> out.add(parts[0] + ":" + v));
    }
    return out;
  }

  /**
   * The component protection webhook: off by default (no Service, no webhook RBAC); enabled,
   * the operator gets its flags and port, a Service in front of that port, the right to write
   * only its ValidatingWebhookConfiguration and its own certificate Secret.
   */
  @Test
  void componentProtectionRendersTheOperatorsFlagsItsServiceAndOnlyItsRbac() {
    assertThat(render("r", "ops").keySet()).noneMatch(k -> k.contains("webhook")
        || k.equals("Service/r-etcd-druid"));
    Map<String, HasMetadata> objects = render("r", "ops", "--set",
        "componentProtection.enabled=true");
    Deployment d = (Deployment) objects.get("Deployment/r-etcd-druid");
    var c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(c.getArgs()).contains("--enable-etcd-components-webhook",
        "--webhook-server-port=9443", "--webhook-service=ops/r-etcd-druid",
        "--webhook-configuration-name=etcd-druid-component-protection",
        "--etcd-components-webhook-exempt-service-accounts="
            + "system:serviceaccount:kube-system:generic-garbage-collector");
    assertThat(c.getPorts()).anySatisfy(p -> {
      assertThat(p.getName()).isEqualTo("webhook");
      assertThat(p.getContainerPort()).isEqualTo(9443);
    });
    io.fabric8.kubernetes.api.model.Service service =
        (io.fabric8.kubernetes.api.model.Service) objects.get("Service/r-etcd-druid");
    assertThat(service.getSpec().getPorts()).singleElement().satisfies(p -> {
      assertThat(p.getPort()).isEqualTo(9443);
      assertThat(p.getTargetPort().getStrVal()).isEqualTo("webhook");
    });
    var role = (io.fabric8.kubernetes.api.model.rbac.ClusterRole)
        objects.get("ClusterRole/r-etcd-druid-ops-webhook");
    assertThat(role.getRules()).allSatisfy(rule -> assertThat(rule.getResources())
        .containsExactly("validatingwebhookconfigurations"));
    assertThat(role.getRules()).filteredOn(rule -> rule.getVerbs().contains("patch"))
        .singleElement().satisfies(rule -> assertThat(rule.getResourceNames())
            .containsExactly("etcd-druid-component-protection"));
    var secrets = (io.fabric8.kubernetes.api.model.rbac.Role)
        objects.get("Role/r-etcd-druid-webhook@ops");
    assertThat(secrets.getRules()).filteredOn(rule -> rule.getVerbs().contains("get"))
        .singleElement().satisfies(rule -> assertThat(rule.getResourceNames())
            .containsExactly("r-etcd-druid-webhook-tls"));
  }

  @Test
  void twoReleasesDoNotShareNames() {
    assertThat(render("a", "x").keySet()).doesNotContainAnyElementsOf(render("b", "x").keySet());
  }

  @Test
  void namespacedModeGrantsRolesOnlyInTheWatchedNamespaces() {
    Map<String, HasMetadata> objects = render("r", "ops", "--set", "clusterWide=false",
        "--set", "watchNamespaces={team-a,team-b}", "--set", "replicas=1",
        "--set", "image.digest=sha256:" + "a".repeat(64));
    List<String> roles = objects.values().stream().filter(o -> o.getKind().equals("Role"))
        .map(o -> o.getMetadata().getNamespace()).sorted().toList();
    assertThat(roles).containsExactly("ops", "team-a", "team-b");
    assertThat(objects).doesNotContainKey("ClusterRole/r-etcd-druid")
        .doesNotContainKey("PodDisruptionBudget/r-etcd-druid");
    Deployment d = (Deployment) objects.get("Deployment/r-etcd-druid");
    assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
        .contains("--namespace=team-a,team-b");
    assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .endsWith("etcd-druid-jvm@sha256:" + "a".repeat(64));
  }

  @Test
  void theSchemaRejectsBadValuesNamingTheField() {
    Helm.Result result = new Helm(home, null).run("template", "r", Helm.chart().toString(),
        "--set", "replicas=-1");
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.output()).contains("replicas");
    Helm.Result unknown = new Helm(home, null).run("template", "r", Helm.chart().toString(),
        "--set", "replica=2");
    assertThat(unknown.exitCode()).isNotZero();
    assertThat(unknown.output()).contains("replica");
  }

  private Map<String, HasMetadata> render(String release, String namespace, String... sets) {
    List<String> args = new java.util.ArrayList<>(List.of("template", release,
        Helm.chart().toString(), "--namespace", namespace));
    args.addAll(Arrays.asList(sets));
    String yaml = new Helm(home, null).run(args.toArray(String[]::new)).orThrow().output();
    return Arrays.stream(yaml.split("(?m)^---\\s*$"))
        .filter(doc -> doc.contains("kind:"))
        .map(doc -> (HasMetadata) Serialization.unmarshal(doc))
        .collect(Collectors.toMap(o -> o.getKind() + "/" + o.getMetadata().getName()
            + (o.getKind().equals("Role") || o.getKind().equals("RoleBinding")
            ? "@" + o.getMetadata().getNamespace() : ""), o -> o));
  }
}
