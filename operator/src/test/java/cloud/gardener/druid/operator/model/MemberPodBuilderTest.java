package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.BboltFreelistType;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.MetricsLevel;
import cloud.gardener.druid.api.v1alpha1.PeerTLSConfig;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.Pod;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.LeaderElectionSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecretReference;
import org.junit.jupiter.api.Test;

class MemberPodBuilderTest {

  final OperatorSettings settings = OperatorSettings.defaults();

  @Test
  void memberPodHasStableIdentityAndItsOwnVolume() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    Pod pod = MemberPodBuilder.build(etcd, settings, 2);
    assertThat(pod.getMetadata().getName()).isEqualTo("etcd-main-2");
    assertThat(pod.getSpec().getHostname()).isEqualTo("etcd-main-2");
    assertThat(pod.getSpec().getSubdomain()).isEqualTo("etcd-main-peer");
    assertThat(pod.getSpec().getVolumes()).filteredOn(v -> v.getPersistentVolumeClaim() != null)
        .singleElement().satisfies(v ->
            assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("etcd-main-etcd-main-2"));
    assertThat(pod.getMetadata().getLabels())
        .containsEntry("app", "etcd-main")
        .containsEntry(Labels.MEMBER_ORDINAL, "2")
        .containsEntry(Labels.MEMBER_REVISION, MemberPodBuilder.revision(etcd, settings));
    assertThat(pod.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getController()).isTrue());
    assertThat(pod.getSpec().getContainers().get(0).getArgs()).first().isEqualTo("agent");
    assertThat(pod.getSpec().getContainers().get(0).getArgs()).contains("--replicas=3");
  }

  @Test
  void anEtcdUserSecretIsMountedReadOnlyAndTheAgentGetsItsDirectoryNotItsValues() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    Pod plain = MemberPodBuilder.build(etcd, settings, 0);
    assertThat(plain.getSpec().getVolumes()).noneMatch(v -> v.getName().equals("etcd-auth"));
    assertThat(plain.getSpec().getContainers().get(0).getArgs())
        .noneMatch(a -> a.startsWith("--etcd-auth-dir"));

    etcd.getSpec().getEtcd().setAuthSecretRef(new SecretReference("etcd-user", null));
    Pod pod = MemberPodBuilder.build(etcd, settings, 0);

    assertThat(pod.getSpec().getVolumes()).filteredOn(v -> v.getName().equals("etcd-auth"))
        .singleElement().satisfies(v -> {
          assertThat(v.getSecret().getSecretName()).isEqualTo("etcd-user");
          assertThat(v.getSecret().getItems()).extracting(i -> i.getKey() + "=" + i.getPath())
              .containsExactly("username=username", "password=password");
        });
    var container = pod.getSpec().getContainers().get(0);
    assertThat(container.getVolumeMounts()).filteredOn(m -> m.getName().equals("etcd-auth"))
        .singleElement().satisfies(m -> {
          assertThat(m.getMountPath()).isEqualTo(MemberLayout.ETCD_AUTH_DIR);
          assertThat(m.getReadOnly()).isTrue();
        });
    assertThat(container.getArgs()).contains("--etcd-auth-dir=" + MemberLayout.ETCD_AUTH_DIR)
        .noneMatch(a -> a.contains("password=") || a.contains("username="));
    assertThat(container.getEnv()).noneMatch(e -> e.getValueFrom() != null
        && e.getValueFrom().getSecretKeyRef() != null);
    assertThat(MemberPodBuilder.revision(etcd, settings))
        .isNotEqualTo(MemberPodBuilder.revision(Etcds.etcd("etcd-main", 3), settings));
  }

  @Test
  void etcdMetricsAndFreelistTypeReachEtcdThroughTheAgent() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    assertThat(MemberPodBuilder.build(etcd, settings, 0).getSpec().getContainers().get(0)
        .getArgs()).noneMatch(a -> a.startsWith("--etcd-metrics="))
        .contains("--backend-bbolt-freelist-type=array");

    etcd.getSpec().getEtcd().setMetrics(MetricsLevel.EXTENSIVE);
    etcd.getSpec().getEtcd().setBackendBboltFreelistType(BboltFreelistType.MAP);

    assertThat(MemberPodBuilder.build(etcd, settings, 0).getSpec().getContainers().get(0)
        .getArgs()).contains("--etcd-metrics=extensive", "--backend-bbolt-freelist-type=map");
  }

  @Test
  void upstreamsTimeoutsHeartbeatAndLeaderChecksReachTheAgentOnlyWhenSet() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    assertThat(MemberPodBuilder.build(etcd, settings, 0).getSpec().getContainers().get(0)
        .getArgs()).noneMatch(a -> a.startsWith("--etcd-snapshot-timeout=")
            || a.startsWith("--etcd-defrag-timeout=") || a.startsWith("--k8s-heartbeat-duration=")
            || a.startsWith("--reelection-period="));
    etcd.getSpec().getBackup().setEtcdSnapshotTimeout(GoDuration.parse("20m"));
    etcd.getSpec().getEtcd().setEtcdDefragTimeout(GoDuration.parse("8m"));
    etcd.getSpec().getEtcd().setHeartbeatDuration(GoDuration.parse("5s"));
    LeaderElectionSpec election = new LeaderElectionSpec();
    election.setReelectionPeriod(GoDuration.parse("5s"));
    election.setEtcdConnectionTimeout(GoDuration.parse("3s"));
    etcd.getSpec().getBackup().setLeaderElection(election);
    assertThat(MemberPodBuilder.build(etcd, settings, 0).getSpec().getContainers().get(0)
        .getArgs()).contains("--etcd-snapshot-timeout=20m", "--etcd-defrag-timeout=8m",
            "--k8s-heartbeat-duration=5s", "--reelection-period=5s",
            "--etcd-connection-timeout-leader-election=3s");
  }

  @Test
  void theSidecarsResourcesAddToTheMemberContainers() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    etcd.getSpec().getEtcd().setResources(new ResourceRequirementsBuilder()
        .addToRequests("cpu", new Quantity("100m")).addToRequests("memory", new Quantity("200Mi"))
        .addToLimits("memory", new Quantity("1Gi")).build());
    etcd.getSpec().getBackup().setResources(new ResourceRequirementsBuilder()
        .addToRequests("cpu", new Quantity("23m")).addToRequests("memory", new Quantity("128Mi"))
        .addToLimits("memory", new Quantity("1Gi")).addToLimits("cpu", new Quantity("200m"))
        .build());
    var resources = MemberPodBuilder.build(etcd, settings, 0).getSpec().getContainers().get(0)
        .getResources();
    assertThat(resources.getRequests().get("cpu").getNumericalAmount())
        .isEqualByComparingTo("0.123");
    assertThat(resources.getRequests().get("memory").getNumericalAmount())
        .isEqualByComparingTo(String.valueOf(328L << 20));
    assertThat(resources.getLimits().get("memory").getNumericalAmount())
        .isEqualByComparingTo(String.valueOf(2L << 30));
    assertThat(resources.getLimits().get("cpu").getNumericalAmount()).as("only the sidecar's")
        .isEqualByComparingTo("0.2");
  }

  @Test
  void anUpstreamBackupImageIsNotTheMemberImage() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    etcd.getSpec().getBackup()
        .setImage("europe-docker.pkg.dev/gardener-project/public/gardener/etcdbrctl:v0.30.1");
    assertThat(MemberPodBuilder.build(etcd, settings, 0).getSpec().getContainers().get(0)
        .getImage()).isEqualTo(settings.defaultImage());

    etcd.getSpec().getBackup().setImage("registry.example/etcd-druid-jvm:0.2.0");
    assertThat(MemberPodBuilder.build(etcd, settings, 0).getSpec().getContainers().get(0)
        .getImage()).isEqualTo("registry.example/etcd-druid-jvm:0.2.0");
  }

  @Test
  void theAgentApiAlwaysServesTlsWithTheOperatorsCaAndTheUsersServerCertificateWhenGiven() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    Pod pod = MemberPodBuilder.build(etcd, settings, 0);
    var container = pod.getSpec().getContainers().get(0);
    assertThat(container.getArgs()).contains("--server-tls-dir=" + MemberLayout.AGENT_TLS_DIR);
    assertThat(container.getReadinessProbe().getHttpGet().getScheme()).isEqualTo("HTTPS");
    assertThat(container.getVolumeMounts()).anySatisfy(m -> {
      assertThat(m.getName()).isEqualTo("agent-tls");
      assertThat(m.getMountPath()).isEqualTo(MemberLayout.AGENT_TLS_DIR);
    });
    assertThat(agentTlsSecrets(pod)).containsExactly("etcd-main-agent-api-tls",
        "etcd-main-agent-api-tls");

    cloud.gardener.druid.api.v1alpha1.TLSConfig tls = new cloud.gardener.druid.api.v1alpha1.TLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName("user-ca");
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName("user-server");
    tls.setServerTLSSecretRef(server);
    etcd.getSpec().getBackup().setTls(tls);
    assertThat(agentTlsSecrets(MemberPodBuilder.build(etcd, settings, 0)))
        .as("callers are always checked against the operator's CA").containsExactly(
            "etcd-main-agent-api-tls", "user-server");
  }

  private static java.util.List<String> agentTlsSecrets(Pod pod) {
    return pod.getSpec().getVolumes().stream().filter(v -> v.getName().equals("agent-tls"))
        .flatMap(v -> v.getProjected().getSources().stream())
        .map(source -> source.getSecret().getName()).toList();
  }

  @Test
  void membersRunRestrictedAsTheImageUserUnlessRunAsRoot() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    var spec = MemberPodBuilder.build(etcd, settings, 0).getSpec();
    var pod = spec.getSecurityContext();
    assertThat(pod.getRunAsNonRoot()).isTrue();
    assertThat(pod.getRunAsUser()).isEqualTo(65532L);
    assertThat(pod.getRunAsGroup()).isEqualTo(65532L);
    assertThat(pod.getFsGroup()).as("the PVC writable by the non-root agent").isEqualTo(65532L);
    assertThat(pod.getFsGroupChangePolicy()).isEqualTo("OnRootMismatch");
    assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    var container = spec.getContainers().get(0).getSecurityContext();
    assertThat(container.getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getReadOnlyRootFilesystem()).isTrue();
    assertThat(spec.getContainers().get(0).getVolumeMounts())
        .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
    assertThat(spec.getVolumes()).filteredOn(v -> v.getName().equals("tmp"))
        .singleElement().satisfies(v -> assertThat(v.getEmptyDir()).isNotNull());

    String nonRoot = MemberPodBuilder.revision(etcd, settings);
    etcd.getSpec().setRunAsRoot(true);
    var root = MemberPodBuilder.build(etcd, settings, 0).getSpec();
    assertThat(root.getSecurityContext().getRunAsNonRoot()).isFalse();
    assertThat(root.getSecurityContext().getRunAsUser()).isZero();
    assertThat(root.getSecurityContext().getRunAsGroup()).isZero();
    assertThat(root.getSecurityContext().getFsGroup()).isZero();
    assertThat(root.getContainers().get(0).getSecurityContext().getAllowPrivilegeEscalation())
        .isFalse();
    assertThat(root.getContainers().get(0).getSecurityContext().getCapabilities()).isNull();
    assertThat(MemberPodBuilder.revision(etcd, settings)).as("runAsRoot rolls the members")
        .isNotEqualTo(nonRoot);
  }

  @Test
  void everyMemberCarriesTheSameRevision() {
    Etcd etcd = Etcds.etcd("e", 3);
    assertThat(MemberPodBuilder.build(etcd, settings, 0).getMetadata().getLabels().get(Labels.MEMBER_REVISION))
        .isEqualTo(MemberPodBuilder.build(etcd, settings, 2).getMetadata().getLabels().get(Labels.MEMBER_REVISION));
  }

  @Test
  void revisionChangesWithThePodSpecButNotWithScaleOrVolume() {
    Etcd etcd = Etcds.etcd("e", 3);
    String base = MemberPodBuilder.revision(etcd, settings);

    etcd.getSpec().setReplicas(5);
    assertThat(MemberPodBuilder.build(etcd, settings, 4).getSpec().getContainers().get(0).getArgs())
        .contains("--replicas=5");
    etcd.getSpec().setStorageCapacity(new Quantity("50Gi"));
    assertThat(MemberPodBuilder.revision(etcd, settings)).isEqualTo(base);

    etcd.getSpec().getEtcd().setQuota(new Quantity("2Gi"));
    String configChanged = MemberPodBuilder.revision(etcd, settings);
    assertThat(configChanged).isNotEqualTo(base);

    String metadata = MemberPodBuilder.metadataRevision(etcd);
    etcd.getSpec().setLabels(java.util.Map.of("app", "e", "tier", "x"));
    etcd.getSpec().setAnnotations(java.util.Map.of("team", "storage"));
    assertThat(MemberPodBuilder.revision(etcd, settings))
        .as("labels and annotations are applied in place, not by a restart")
        .isEqualTo(configChanged);
    assertThat(MemberPodBuilder.metadataRevision(etcd)).isNotEqualTo(metadata);
    Pod pod = MemberPodBuilder.build(etcd, settings, 1);
    assertThat(pod.getMetadata().getLabels()).containsEntry("tier", "x");
    assertThat(pod.getMetadata().getAnnotations()).containsEntry("team", "storage")
        .containsEntry(Annotations.METADATA_REVISION, MemberPodBuilder.metadataRevision(etcd));
  }

  @Test
  void inPlaceMetadataKeepsTheRevisionsOfWhatThePodRuns() {
    Etcd etcd = Etcds.etcd("e", 3);
    Pod running = MemberPodBuilder.build(etcd, settings, 1);
    etcd.getSpec().getEtcd().setQuota(new Quantity("2Gi"));
    etcd.getSpec().setLabels(java.util.Map.of("tier", "x"));
    var meta = MemberPodBuilder.metadata(etcd, settings, 1, running);
    assertThat(meta.getLabels()).containsEntry("tier", "x")
        .containsEntry(Labels.MEMBER_REVISION, running.getMetadata().getLabels()
            .get(Labels.MEMBER_REVISION));
    assertThat(meta.getAnnotations()).containsEntry(MemberPodBuilder.CONFIG_CHECKSUM_ANNOTATION,
        running.getMetadata().getAnnotations().get(MemberPodBuilder.CONFIG_CHECKSUM_ANNOTATION))
        .containsEntry(Annotations.METADATA_REVISION, MemberPodBuilder.metadataRevision(etcd));
  }

  @Test
  void peerTlsMountsItsSecretsAndSwitchesThePeerScheme() {
    Etcd etcd = Etcds.etcd("e", 3);
    String plain = MemberPodBuilder.revision(etcd, settings);
    PeerTLSConfig tls = new PeerTLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName("peer-ca");
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName("peer-server");
    tls.setServerTLSSecretRef(server);
    etcd.getSpec().getEtcd().setPeerUrlTls(tls);

    Pod pod = MemberPodBuilder.build(etcd, settings, 0);
    // the operator's copy of peer-ca and peer-server, advanced step by step in a CA rotation
    assertThat(pod.getSpec().getVolumes()).filteredOn(v -> "peer-tls".equals(v.getName()))
        .singleElement().satisfies(v -> assertThat(v.getSecret().getSecretName())
            .isEqualTo("e-peer-tls-in-use"));
    assertThat(pod.getSpec().getContainers().get(0).getArgs()).contains("--peer-tls-dir=/var/etcd/ssl/peer");
    assertThat(MemberPodBuilder.revision(etcd, settings)).isNotEqualTo(plain);
    assertThat(EtcdConfigMapBuilder.build(etcd).getData().get(MemberLayout.CONFIG_KEY))
        .contains("https://e-0.e-peer.ns.svc:2380", "peer-transport-security");
    assertThat(pod.getSpec().getContainers().get(0).getArgs())
        .noneMatch(a -> a.startsWith("--peer-skip-client-san-verification"));

    String checked = MemberPodBuilder.revision(etcd, settings);
    tls.setSkipClientSANVerification(true);
    assertThat(MemberPodBuilder.build(etcd, settings, 0).getSpec().getContainers().get(0).getArgs())
        .contains("--peer-skip-client-san-verification=true");
    assertThat(MemberPodBuilder.revision(etcd, settings)).isNotEqualTo(checked);
  }

  @Test
  void volumesFollowUpstreamNamesAndCarryTheirRevision() {
    Etcd etcd = Etcds.etcd("etcd-main", 1);
    etcd.getSpec().setVolumeClaimTemplate("main-etcd");
    var pvc = MemberVolumeBuilder.build(etcd, 0);
    assertThat(pvc.getMetadata().getName()).isEqualTo("main-etcd-etcd-main-0");
    assertThat(pvc.getSpec().getStorageClassName()).isEqualTo("standard");
    assertThat(pvc.getSpec().getResources().getRequests().get("storage")).isEqualTo(new Quantity("16Gi"));
    String before = MemberVolumeBuilder.revision(etcd);
    etcd.getSpec().setStorageClass("encrypted");
    assertThat(MemberVolumeBuilder.revision(etcd)).isNotEqualTo(before);
  }

  @Test
  void disruptionBudgetKeepsQuorum() {
    assertThat(DisruptionBudgetBuilder.minAvailable(1)).isZero();
    assertThat(DisruptionBudgetBuilder.minAvailable(3)).isEqualTo(2);
    assertThat(DisruptionBudgetBuilder.minAvailable(5)).isEqualTo(3);
  }
}
