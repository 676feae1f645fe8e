package cloud.gardener.druid.testenv.api;

import static cloud.gardener.druid.testenv.api.DruidResources.assertAdmitted;
import static cloud.gardener.druid.testenv.api.DruidResources.assertRejected;
import static cloud.gardener.druid.testenv.api.DruidResources.etcd;
import static cloud.gardener.druid.testenv.api.DruidResources.example;
import static cloud.gardener.druid.testenv.api.DruidResources.map;
import static cloud.gardener.druid.testenv.api.DruidResources.resources;
import static cloud.gardener.druid.testenv.api.DruidResources.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every validation rule of upstream's CRDs (gardener/etcd-druid api/core/v1alpha1/crds) on the
 * real API server, each with admitted and refused cases; refusals name the field. The table in
 * docs/upstream-differences.md maps each rule to these tests.
 */
@LocalKubernetes
class UpstreamRulesIT {

  @BeforeAll
  static void installCrds(KubernetesClient client) {
    DruidResources.installCrds(client);
  }

  @Test
  void storeContainerIsABucketName(KubernetesClient client) {
    for (String ok : List.of("backups", "etcd-backups.v1_x", "a1b", "A".repeat(63))) {
      assertAdmitted(client, etcd("c-ok", store(s -> s.put("container", ok))));
    }
    for (String bad : List.of("../etc", "a/b", "-backups", "backups-", "ab", "x".repeat(64),
        "with space")) {
      assertRejected(client, etcd("c-bad", store(s -> s.put("container", bad))),
          "spec.backup.store.container");
    }
  }

  @Test
  void bothStoresOfACopyTaskHaveBucketNames(KubernetesClient client) {
    assertAdmitted(client, copyTask(s -> { }));
    assertRejected(client, copyTask(s -> map(s, "sourceStore").put("container", "../x")),
        "spec.sourceStore.container");
    assertRejected(client, copyTask(s -> map(s, "targetStore").put("container", "y".repeat(64))),
        "spec.targetStore.container");
    assertRejected(client, copyTask(s -> map(s, "targetStore").put("endpointOverride", "::")),
        "spec.targetStore.endpointOverride", "endpoint override must be a valid URL");
    assertAdmitted(client, copyTask(s -> map(s, "waitForFinalSnapshot").put("timeout", "0")));
    assertRejected(client, copyTask(s -> map(s, "waitForFinalSnapshot").put("timeout", "10 min")),
        "spec.waitForFinalSnapshot.timeout");
  }

  @Test
  void storePrefixIsARelativePathInsideItsContainer(KubernetesClient client) {
    for (String ok : List.of("etcd-main", "default/etcd-main", "..dots/.hidden/a..b")) {
      assertAdmitted(client, etcd("p-ok", store(s -> s.put("prefix", ok))));
    }
    for (String bad : List.of("/etc", "..", "../other-namespace", "a/../../b", "a//b", "a/",
        "./a", "a\\..\\b", "", "p".repeat(1025))) {
      assertRejected(client, etcd("p-bad", store(s -> s.put("prefix", bad))),
          "spec.backup.store.prefix");
    }
    assertRejected(client, etcd("p-msg", store(s -> s.put("prefix", "../x"))),
        "spec.backup.store.prefix", "must be a relative path");
    assertAdmitted(client, copyTask(s -> map(s, "sourceStore").put("prefix", "ns/etcd-a")));
    assertRejected(client, copyTask(s -> map(s, "sourceStore").put("prefix", "../other/etcd")),
        "spec.sourceStore.prefix", "must be a relative path");
    assertRejected(client, copyTask(s -> map(s, "targetStore").put("prefix", "/abs")),
        "spec.targetStore.prefix", "must be a relative path");
  }

  @Test
  void endpointOverrideIsAUrl(KubernetesClient client) {
    assertAdmitted(client, etcd("e-ok", store(s -> s.put("endpointOverride",
        "http://127.0.0.1:9000"))));
    assertRejected(client, etcd("e-bad", store(s -> s.put("endpointOverride", "no url"))),
        "spec.backup.store.endpointOverride", "endpoint override must be a valid URL");
  }

  @Test
  void everyProviderNameUpstreamReadsIsAdmitted(KubernetesClient client) {
    for (String provider : List.of("Local", "local", "S3", "s3", "aws", "stackit", "ABS",
        "azure", "GCS", "gcp", "Swift", "openstack", "OSS", "alicloud", "ECS", "dell", "OCS",
        "openshift")) {
      assertAdmitted(client, etcd("p-ok", store(s -> s.put("provider", provider))));
    }
    assertRejected(client, etcd("p-bad", store(s -> s.put("provider", "ftp"))),
        "spec.backup.store.provider");
  }

  @Test
  void garbageCollectionPeriodExceedsDeltaSnapshotPeriod(KubernetesClient client) {
    assertAdmitted(client, etcd("gc-ok", backup(b -> {
      b.put("deltaSnapshotPeriod", "20s");
      b.put("garbageCollectionPeriod", "1m");
    })));
    for (List<String> bad : List.of(List.of("1h", "30m"), List.of("60s", "1m"),
        List.of("1500ms", "1900ms"))) {
      assertRejected(client, etcd("gc-bad", backup(b -> {
        b.put("deltaSnapshotPeriod", bad.get(0));
        b.put("garbageCollectionPeriod", bad.get(1));
      })), "spec.backup.garbageCollectionPeriod", "must be greater than");
    }
  }

  @Test
  void additionalPeerUrlsNameMembersOfThisEtcd(KubernetesClient client) {
    assertAdmitted(client, peers("peers", 3, null, List.of(member("peers-0",
        "http://10.0.0.1:2380"), member("peers-2", "http://10.0.0.3:2380", "http://a.b:2380"))));
    assertRejected(client, peers("peers", 3, null, List.of(member("Peers_0", "http://a:2380"))),
        "spec.etcd.additionalAdvertisePeerURLs[0].memberName");
    assertRejected(client, peers("peers", 3, null, List.of(member("other-0", "http://a:2380"))),
        "spec.etcd.additionalAdvertisePeerURLs", "member names must be");
    assertRejected(client, peers("peers", 3, null, List.of(member("peers-3", "http://a:2380"))),
        "spec.etcd.additionalAdvertisePeerURLs", "index must be less than replicas");
    // here members are <memberNamePrefix>-<i> (upstream: <prefix>-<Etcd name>-<i>)
    assertAdmitted(client, peers("peers", 1, "pfx", List.of(member("pfx-0", "http://a:2380"))));
    assertRejected(client, peers("peers", 1, "pfx",
        List.of(member("pfx-peers-0", "http://a:2380"))), "spec.etcd.additionalAdvertisePeerURLs",
        "member names must be");
  }

  @Test
  void additionalPeerUrlsAreHttpUrlsMatchingPeerTls(KubernetesClient client) {
    assertRejected(client, peers("peers", 1, null, List.of(member("peers-0", "ftp://a:2380"))),
        "spec.etcd.additionalAdvertisePeerURLs[0].urls[0]", "must be a valid http:// or https://");
    assertRejected(client, peers("peers", 1, null, List.of(member("peers-0",
        "http://" + "h".repeat(2050)))), "spec.etcd.additionalAdvertisePeerURLs[0].urls[0]");
    assertRejected(client, peers("peers", 1, null, List.of(member("peers-0"))),
        "spec.etcd.additionalAdvertisePeerURLs[0].urls");
    assertRejected(client, peers("peers", 1, null, List.of(member("peers-0",
        IntStream.range(0, 6).mapToObj(i -> "http://10.0.0." + i + ":2380")
            .toArray(String[]::new)))), "spec.etcd.additionalAdvertisePeerURLs[0].urls");
    assertRejected(client, peers("peers", 1, null, List.of(member("peers-0", "http://a:2380",
        "http://a:2380"))), "spec.etcd.additionalAdvertisePeerURLs[0].urls[1]", "Duplicate");
    assertRejected(client, peers("peers", 1, null, IntStream.range(0, 11)
        .mapToObj(i -> member("peers-0", "http://a:2380")).toList()),
        "spec.etcd.additionalAdvertisePeerURLs");
    assertRejected(client, peers("peers", 1, null, List.of(member("peers-0", "https://a:2380"))),
        "spec.etcd.additionalAdvertisePeerURLs", "must use http://");

    GenericKubernetesResource tls = peers("peers", 1, null,
        List.of(member("peers-0", "http://a:2380")));
    map(spec(tls), "etcd").put("peerUrlTls", tlsConfig());
    assertRejected(client, tls, "spec.etcd.additionalAdvertisePeerURLs", "must use https://");
    map(spec(tls), "etcd").put("additionalAdvertisePeerURLs",
        List.of(member("peers-0", "https://a:2380")));
    assertAdmitted(client, tls);
  }

  @Test
  void bootstrapWithExistingClusterFollowsUpstreamRules(KubernetesClient client) {
    assertAdmitted(client, bootstrap("boot", e -> { }));
    assertRejected(client, bootstrap("boot", e -> e.put("peerUrlTls", tlsConfig())),
        "spec.etcd.bootstrapWithExistingCluster", "peer URLs must use https://");
    assertRejected(client, bootstrap("boot", e -> e.put("clientUrlTls", tlsConfig())),
        "spec.etcd.bootstrapWithExistingCluster", "clientEndpoints must use https://");
    assertRejected(client, bootstrap("boot", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", List.of())),
        "spec.etcd.bootstrapWithExistingCluster.members");
    assertRejected(client, bootstrap("boot", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", IntStream.range(0, 11).mapToObj(i -> existing("src-" + i)).toList())),
        "spec.etcd.bootstrapWithExistingCluster.members");
    assertRejected(client, bootstrap("boot", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", List.of(Map.of("name", "src-0", "peerUrls", List.of())))),
        "spec.etcd.bootstrapWithExistingCluster.members[0].peerUrls");
    assertRejected(client, bootstrap("boot", e -> map(e, "bootstrapWithExistingCluster")
        .put("clientEndpoints", List.of())),
        "spec.etcd.bootstrapWithExistingCluster.clientEndpoints");
    assertRejected(client, bootstrap("boot", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", List.of(existing("Src_0")))),
        "spec.etcd.bootstrapWithExistingCluster.members[0].name");
    assertRejected(client, bootstrap("boot", e -> map(e, "bootstrapWithExistingCluster")
        .put("clientEndpoints", List.of("etcd:2379"))),
        "spec.etcd.bootstrapWithExistingCluster.clientEndpoints[0]", "must be a valid http://");
  }

  /** upstream TestValidateCreateSpecBootstrapWithExistingClusterUniqueMemberNames. */
  @Test
  void bootstrapMemberNamesAreUnique(KubernetesClient client) {
    assertAdmitted(client, bootstrap("unique-1", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", List.of(existing("src-0"), existing("src-1"), existing("src-2")))));
    assertRejected(client, bootstrap("unique-2", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", List.of(existing("src-0"), Map.of("name", "src-0",
            "peerUrls", List.of("http://10.0.0.2:2380"))))),
        "spec.etcd.bootstrapWithExistingCluster", "must be unique");
  }

  /**
   * upstream TestValidateCreateSpecBootstrapWithExistingClusterNoTargetCollision: our member
   * names are {@code <memberNamePrefix or Etcd name>-<i>} (docs/upstream-differences.md), so the
   * prefixed case collides with {@code main-<i>}, not with {@code main-<name>-<i>}.
   */
  @Test
  void bootstrapMemberNamesDoNotCollideWithTargetMembers(KubernetesClient client) {
    assertAdmitted(client, bootstrap("collision-1", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", List.of(existing("src-0")))));
    assertRejected(client, bootstrap("collision-2", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", List.of(existing("collision-2-0")))),
        "spec.etcd.bootstrapWithExistingCluster", "must not collide");
    GenericKubernetesResource prefixed = bootstrap("collision-3",
        e -> map(e, "bootstrapWithExistingCluster")
            .put("members", List.of(existing("collision-3-0"))));
    spec(prefixed).put("memberNamePrefix", "main");
    assertAdmitted(client, prefixed);
    GenericKubernetesResource prefixedCollision = bootstrap("collision-4",
        e -> map(e, "bootstrapWithExistingCluster").put("members", List.of(existing("main-0"))));
    spec(prefixedCollision).put("memberNamePrefix", "main");
    assertRejected(client, prefixedCollision, "spec.etcd.bootstrapWithExistingCluster",
        "must not collide");
  }

  /** upstream TestValidateCreateSpecBootstrapWithExistingClusterURLUniqueness. */
  @Test
  void bootstrapUrlsAreSets(KubernetesClient client) {
    assertAdmitted(client, bootstrap("url-1", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", List.of(Map.of("name", "src-0",
            "peerUrls", List.of("http://10.0.0.1:2380", "http://10.0.0.2:2380"))))));
    assertRejected(client, bootstrap("url-2", e -> map(e, "bootstrapWithExistingCluster")
        .put("members", List.of(Map.of("name", "src-0",
            "peerUrls", List.of("http://10.0.0.1:2380", "http://10.0.0.1:2380"))))),
        "spec.etcd.bootstrapWithExistingCluster.members[0].peerUrls", "Duplicate value");
    assertRejected(client, bootstrap("url-3", e -> map(e, "bootstrapWithExistingCluster")
        .put("clientEndpoints", List.of("http://10.0.0.1:2379", "http://10.0.0.1:2379"))),
        "spec.etcd.bootstrapWithExistingCluster.clientEndpoints", "Duplicate value");
  }

  /** upstream TestValidateUpdateSpecBootstrapWithExistingClusterCreateOnly. */
  @Test
  void bootstrapCannotBeAddedOnUpdate(KubernetesClient client) {
    resources(client, "Etcd").resource(etcd("boot-later", s -> { })).create();
    assertThatThrownBy(() -> resources(client, "Etcd").withName("boot-later").edit(e -> {
      map(spec(e), "etcd").put("bootstrapWithExistingCluster", bootstrapSpec());
      return e;
    })).isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.etcd.bootstrapWithExistingCluster")
        .hasMessageContaining("cannot be added after the Etcd resource has been created");
  }

  /**
   * upstream TestValidateUpdateSpecBootstrapWithExistingClusterFreezeWhileInProgress: members
   * and client endpoints are frozen while the condition is False, free without it or when True.
   */
  @Test
  void bootstrapIsFrozenWhileInProgress(KubernetesClient client) {
    record Case(String condition, boolean change, String changedField, boolean refused) { }
    List<Case> cases = List.of(
        new Case(null, true, "members", false),
        new Case("True", true, "members", false),
        new Case("False", false, "members", false),
        new Case("False", true, "members", true),
        new Case("False", true, "peerUrls", true),
        new Case("False", true, "clientEndpoints", true));
    for (int i = 0; i < cases.size(); i++) {
      Case c = cases.get(i);
      String name = "freeze-" + i;
      resources(client, "Etcd").resource(bootstrap(name, e -> { })).create();
      if (c.condition() != null) {
        GenericKubernetesResource current = resources(client, "Etcd").withName(name).get();
        current.setAdditionalProperty("status", Map.of("conditions", List.of(Map.of(
            "type", "BootstrappedWithExistingCluster", "status", c.condition(),
            "lastTransitionTime", "2026-12-04T00:00:00Z", "lastUpdateTime",
            "2026-12-04T00:00:00Z", "reason", "TestReason", "message", "test message"))));
        resources(client, "Etcd").resource(current).updateStatus();
      }
      var update = (java.util.concurrent.Callable<GenericKubernetesResource>) () ->
          resources(client, "Etcd").withName(name).edit(e -> {
            Map<String, Object> b = map(map(spec(e), "etcd"), "bootstrapWithExistingCluster");
            if (c.change()) {
              switch (c.changedField()) {
                case "members" -> b.put("members", List.of(existing("source-0"),
                    existing("source-1")));
                case "peerUrls" -> b.put("members", List.of(Map.of("name", "source-0",
                    "peerUrls", List.of("http://source-0.src.svc:2380",
                        "http://10.0.0.99:2380"))));
                default -> b.put("clientEndpoints", List.of("http://source-client.src.svc:2379",
                    "http://10.0.0.2:2379"));
              }
            } else {
              e.getMetadata().setLabels(Map.of("touched", "yes"));
            }
            return e;
          });
      if (c.refused()) {
        assertThatThrownBy(update::call).as(c.toString())
            .isInstanceOf(KubernetesClientException.class)
            .hasMessageContaining("spec.etcd.bootstrapWithExistingCluster")
            .hasMessageContaining("cannot be modified while the bootstrap is in progress");
      } else {
        try {
          assertThat(update.call()).as(c.toString()).isNotNull();
        } catch (Exception ex) {
          throw new AssertionError(c + ": " + ex.getMessage(), ex);
        }
      }
    }
  }

  @Test
  void memberNamePrefixAndTrafficDistributionFollowUpstream(KubernetesClient client) {
    assertAdmitted(client, etcd("m-ok", s -> s.put("memberNamePrefix", "m".repeat(63))));
    assertRejected(client, etcd("m-bad", s -> s.put("memberNamePrefix", "m".repeat(64))),
        "spec.memberNamePrefix");
    assertAdmitted(client, etcd("t-ok", s -> map(map(s, "etcd"), "clientService")
        .put("trafficDistribution", "PreferSameZone")));
    assertRejected(client, etcd("t-bad", s -> map(map(s, "etcd"), "clientService")
        .put("trafficDistribution", "Nearest")), "spec.etcd.clientService.trafficDistribution");
  }

  @Test
  void volumesAndScaleInStayChangeable(KubernetesClient client) {
    // deliberate differences: upstream refuses these updates; our volume flows carry them out
    resources(client, "Etcd").resource(etcd("vol", s -> {
      s.put("replicas", 3);
      s.put("storageCapacity", "2Gi");
    })).create();
    GenericKubernetesResource changed = resources(client, "Etcd").withName("vol").edit(e -> {
      spec(e).put("storageClass", "fast");
      spec(e).put("volumeClaimTemplate", "data");
      spec(e).put("storageCapacity", "1Gi");
      spec(e).put("replicas", 1);
      return e;
    });
    assertThat(spec(changed)).containsEntry("storageClass", "fast")
        .containsEntry("volumeClaimTemplate", "data").containsEntry("replicas", 1);
    GenericKubernetesResource removed = resources(client, "Etcd").withName("vol").edit(e -> {
      spec(e).remove("storageClass");
      return e;
    });
    assertThat(spec(removed)).doesNotContainKey("storageClass");
  }

  @Test
  void opsTaskRulesFollowUpstream(KubernetesClient client) {
    assertAdmitted(client, snapshotTask("full-final", c -> {
      c.put("type", "full");
      c.put("isFinal", true);
    }, 1));
    assertAdmitted(client, snapshotTask("delta-not-final", c -> {
      c.put("type", "delta");
      c.put("isFinal", false);
    }, null));
    assertRejected(client, snapshotTask("delta-final", c -> {
      c.put("type", "delta");
      c.put("isFinal", true);
    }, null), "spec.config.onDemandSnapshot.isFinal", "must be false (or omitted)");
    assertAdmitted(client, snapshotTask("t-full", c -> c.put("timeoutSecondsFull", 120), null));
    assertRejected(client, snapshotTask("t-full", c -> c.put("timeoutSecondsFull", 119), null),
        "spec.config.onDemandSnapshot.timeoutSecondsFull");
    assertAdmitted(client, snapshotTask("t-delta", c -> c.put("timeoutSecondsDelta", 10), null));
    assertRejected(client, snapshotTask("t-delta", c -> c.put("timeoutSecondsDelta", 9), null),
        "spec.config.onDemandSnapshot.timeoutSecondsDelta");
    assertRejected(client, snapshotTask("ttl", c -> { }, 0), "spec.ttlSecondsAfterFinished");

    GenericKubernetesResource noSpec = snapshotTask("no-spec", c -> { }, null);
    noSpec.getAdditionalProperties().remove("spec");
    assertRejected(client, noSpec, "spec");

    resources(client, "EtcdOpsTask").resource(snapshotTask("ttl-fixed", c -> { }, 600)).create();
    assertThatThrownBy(() -> resources(client, "EtcdOpsTask").withName("ttl-fixed").edit(t -> {
      spec(t).put("ttlSecondsAfterFinished", 60);
      return t;
    })).isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.ttlSecondsAfterFinished")
        .hasMessageContaining("immutable");
  }

  private static Consumer<Map<String, Object>> backup(Consumer<Map<String, Object>> edit) {
    return s -> edit.accept(map(s, "backup"));
  }

  private static Consumer<Map<String, Object>> store(Consumer<Map<String, Object>> edit) {
    return backup(b -> edit.accept(map(b, "store")));
  }

  private static GenericKubernetesResource copyTask(Consumer<Map<String, Object>> edit) {
    return example("copybackupstask.yaml", "copy", edit);
  }

  private static GenericKubernetesResource snapshotTask(String name,
      Consumer<Map<String, Object>> config, Integer ttl) {
    return example("opstask-on-demand-snapshot.yaml", name, s -> {
      Map<String, Object> snapshot = map(map(s, "config"), "onDemandSnapshot");
      snapshot.remove("isFinal");
      snapshot.remove("timeoutSecondsFull");
      config.accept(snapshot);
      if (ttl == null) {
        s.remove("ttlSecondsAfterFinished");
      } else {
        s.put("ttlSecondsAfterFinished", ttl);
      }
    });
  }

  private static GenericKubernetesResource peers(String name, int replicas, String prefix,
      List<Map<String, Object>> members) {
    return etcd(name, s -> {
      s.put("replicas", replicas);
      if (prefix != null) {
        s.put("memberNamePrefix", prefix);
      }
      map(s, "etcd").put("additionalAdvertisePeerURLs", members);
    });
  }

  private static Map<String, Object> member(String name, String... urls) {
    return Map.of("memberName", name, "urls", List.of(urls));
  }

  private static GenericKubernetesResource bootstrap(String name,
      Consumer<Map<String, Object>> editEtcd) {
    return etcd(name, s -> {
      map(s, "etcd").put("bootstrapWithExistingCluster", bootstrapSpec());
      editEtcd.accept(map(s, "etcd"));
    });
  }

  private static Map<String, Object> bootstrapSpec() {
    Map<String, Object> spec = new java.util.LinkedHashMap<>();
    spec.put("clientEndpoints", new ArrayList<>(List.of("http://source-client.src.svc:2379")));
    spec.put("members", new ArrayList<>(List.of(existing("source-0"))));
    return spec;
  }

  private static Map<String, Object> existing(String name) {
    return Map.of("name", name, "peerUrls", List.of("http://" + name + ".src.svc:2380"));
  }

  private static Map<String, Object> tlsConfig() {
    return Map.of("tlsCASecretRef", Map.of("name", "ca", "dataKey", "ca.crt"),
        "serverTLSSecretRef", Map.of("name", "server"));
  }
}
