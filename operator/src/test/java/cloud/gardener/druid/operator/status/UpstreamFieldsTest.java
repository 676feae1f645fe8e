package cloud.gardener.druid.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.AdditionalPeerUrls;
import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.BboltFreelistType;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdSpec;
import cloud.gardener.druid.api.v1alpha1.LeaderElectionSpec;
import cloud.gardener.druid.api.v1alpha1.MetricsLevel;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.OperatorSettings;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class UpstreamFieldsTest {

  private static final OperatorSettings SETTINGS =
      new OperatorSettings("registry.example/etcd-druid-jvm:1.0", "/stores");

  private static Etcd etcd(Consumer<EtcdConfig> etcd, Consumer<BackupSpec> backup) {
    Etcd e = new Etcd();
    EtcdSpec spec = new EtcdSpec();
    spec.setEtcd(new EtcdConfig());
    spec.setBackup(new BackupSpec());
    etcd.accept(spec.getEtcd());
    backup.accept(spec.getBackup());
    e.setSpec(spec);
    return e;
  }

  private static List<String> fields(Etcd etcd) {
    return UpstreamFields.of(etcd).stream().map(UpstreamFields.Ignored::field).toList();
  }

  @Test
  void upstreamSampleReportsNothing() throws Exception {
    Path file = Path.of(System.getProperty("druid.repoRoot", ".."), "examples",
        "etcd-upstream-sample.yaml");
    Etcd sample = Serialization.unmarshal(Files.readString(file), Etcd.class);

    assertThat(fields(sample)).as("its sidecar resources and leader election are honoured")
        .isEmpty();
  }

  @Test
  void everyFieldTheOperatorDoesNotActOnIsNamedWithWhatItDoesInstead() {
    Etcd etcd = etcd(ec -> {
      ec.setImage("europe-docker.pkg.dev/gardener-project/public/gardener/etcd-wrapper:v0.1");
      ec.setWrapperPort(9095);
      SecretReference auth = new SecretReference();
      auth.setName("auth");
      ec.setAuthSecretRef(auth);
      ec.setEnableGRPCGateway(false);
      ec.setMetrics(MetricsLevel.EXTENSIVE);
      ec.setBackendBboltFreelistType(BboltFreelistType.ARRAY);
      ec.setHeartbeatDuration(GoDuration.parse("5s"));
      AdditionalPeerUrls extra = new AdditionalPeerUrls();
      extra.setMemberName("etcd-main-0");
      extra.setUrls(List.of("http://10.0.0.1:2380"));
      ec.setAdditionalAdvertisePeerURLs(List.of(extra));
      ec.setEtcdDefragTimeout(GoDuration.parse("8m"));
    }, b -> {
      b.setImage("europe-docker.pkg.dev/gardener-project/public/gardener/etcdbrctl:v0.30.1");
      b.setResources(new ResourceRequirements());
      b.setEnableProfiling(true);
      b.setEtcdSnapshotTimeout(GoDuration.parse("15m"));
      b.setLeaderElection(new LeaderElectionSpec());
      TLSConfig tls = new TLSConfig();
      tls.setClientTLSSecretRef(new SecretReference());
      b.setTls(tls);
    });
    etcd.getSpec().setSelector(new LabelSelector());

    assertThat(fields(etcd)).containsExactly("spec.selector", "spec.etcd.image",
        "spec.etcd.wrapperPort", "spec.etcd.enableGRPCGateway",
        "spec.backup.image",
        "spec.backup.enableProfiling", "spec.backup.tls.clientTLSSecretRef");
    assertThat(UpstreamFields.of(etcd)).allSatisfy(i -> assertThat(i.instead()).isNotBlank());
  }

  @Test
  void anEtcdUserIsHonouredSoItsSecretIsNotReported() {
    Etcd etcd = etcd(ec -> {
      SecretReference auth = new SecretReference();
      auth.setName("etcd-user");
      ec.setAuthSecretRef(auth);
    }, b -> { });

    assertThat(fields(etcd)).doesNotContain("spec.etcd.authSecretRef").isEmpty();
    assertThat(UpstreamFields.condition(etcd)).isEmpty();
  }

  @Test
  void valuesAskingForWhatTheMembersDoAnywayAreNotReported() {
    Etcd etcd = etcd(ec -> {
      ec.setMetrics(MetricsLevel.BASIC);
      ec.setBackendBboltFreelistType(BboltFreelistType.MAP);
      ec.setHeartbeatDuration(GoDuration.parse("10s"));
      ec.setEnableGRPCGateway(true);
    }, b -> {
      b.setImage("my-mirror.example:5000/gardener/etcd-druid-jvm:0.9@sha256:abc");
      b.setEnableProfiling(false);
    });

    assertThat(UpstreamFields.of(etcd)).isEmpty();
    assertThat(UpstreamFields.condition(etcd)).isEmpty();
  }

  @Test
  void theConditionNamesEachIgnoredFieldAndWhatHappensInstead() {
    Etcd etcd = etcd(ec -> { }, b -> b.setEnableProfiling(true));

    Condition c = UpstreamFields.condition(etcd).orElseThrow();

    assertThat(c.getType()).isEqualTo(ConditionTypes.UPSTREAM_FIELDS_IGNORED);
    assertThat(c.getStatus()).isEqualTo(ConditionTypes.TRUE);
    assertThat(c.getReason()).isEqualTo("UpstreamFieldsNotImplemented");
    assertThat(c.getMessage())
        .startsWith("Accepted but not acted on: spec.backup.enableProfiling:")
        .contains("pprof");
  }

  @Test
  void theBackupImageIsTheMemberImageOnlyWhenItIsThisOperatorsImage() {
    Etcd ours = etcd(ec -> { }, b -> b.setImage("mirror.example/x/etcd-druid-jvm@sha256:1"));
    Etcd upstream = etcd(ec -> { },
        b -> b.setImage("europe-docker.pkg.dev/gardener-project/public/gardener/etcdbrctl:v0.30"));
    Etcd unset = etcd(ec -> { }, b -> { });

    assertThat(EtcdDefaults.image(ours, SETTINGS))
        .isEqualTo("mirror.example/x/etcd-druid-jvm@sha256:1");
    assertThat(EtcdDefaults.image(upstream, SETTINGS)).isEqualTo(SETTINGS.defaultImage());
    assertThat(EtcdDefaults.image(unset, SETTINGS)).isEqualTo(SETTINGS.defaultImage());
    assertThat(fields(upstream)).containsExactly("spec.backup.image");
    assertThat(EtcdDefaults.isMemberImage("etcd-druid-jvm:1")).isTrue();
    assertThat(EtcdDefaults.isMemberImage("localhost:5000/etcd-druid-jvm")).isTrue();
    assertThat(EtcdDefaults.isMemberImage("localhost:5000/etcd-druid-jvm-fork:1")).isFalse();
  }
}
