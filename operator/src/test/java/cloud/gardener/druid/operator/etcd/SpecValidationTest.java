package cloud.gardener.druid.operator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretReference;
import cloud.gardener.druid.operator.testing.Etcds;
import org.junit.jupiter.api.Test;

class SpecValidationTest {

  @Test
  void outOfRangeCronIsNamedWithItsField() {
    Etcd etcd = Etcds.etcd("e", 1);
    etcd.getSpec().getBackup().setFullSnapshotSchedule(CronSchedule.parse("61 * * * *"));
    assertThat(SpecValidation.syntax(etcd)).singleElement().satisfies(p -> {
      assertThat(p.code()).isEqualTo("ERR_INVALID_SPEC");
      assertThat(p.description()).startsWith("spec.backup.fullSnapshotSchedule: '61 * * * *'");
    });
  }

  @Test
  void anEtcdUserSecretElsewhereOrWithoutANameIsNamedWithItsField() {
    Etcd etcd = Etcds.etcd("e", 3);
    etcd.getMetadata().setNamespace("shoot");
    etcd.getSpec().getEtcd().setAuthSecretRef(new SecretReference("", "garden"));
    assertThat(SpecValidation.syntax(etcd)).extracting(SpecValidation.Problem::description)
        .satisfiesExactly(
            d -> assertThat(d).startsWith("spec.etcd.authSecretRef.name: "),
            d -> assertThat(d).startsWith("spec.etcd.authSecretRef.namespace: ")
                .contains("shoot", "garden"));
    etcd.getSpec().getEtcd().setAuthSecretRef(new SecretReference("etcd-user", "shoot"));
    assertThat(SpecValidation.syntax(etcd)).isEmpty();
    assertThat(SpecValidation.secrets(etcd)).containsEntry("spec.etcd.authSecretRef",
        "etcd-user");
  }

  @Test
  void anEtcdUserSecretNeedsAUsernameAndAPasswordAndTheProblemShowsNoValue() {
    Secret partial = new SecretBuilder().withNewMetadata().withName("etcd-user").endMetadata()
        .addToData("username", "cm9vdA==").addToData("password", "").build();
    assertThat(SpecValidation.missingAuthKeys(partial)).hasValueSatisfying(p ->
        assertThat(p.description()).isEqualTo("spec.etcd.authSecretRef: secret etcd-user has"
            + " no non-empty key password (the etcd user the agent authenticates as)"));
    Secret whole = new SecretBuilder(partial).addToData("password", "c2VjcmV0").build();
    assertThat(SpecValidation.missingAuthKeys(whole)).isEmpty();
  }

  @Test
  void validSpecHasNoProblems() {
    assertThat(SpecValidation.syntax(Etcds.etcd("e", 3))).isEmpty();
  }

  @Test
  void agentTlsNeedsNoClientCertificateReferenceTheOperatorPresentsItsOwn() {
    Etcd etcd = Etcds.etcd("e", 3);
    TLSConfig tls = new TLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName("ca");
    tls.setTlsCASecretRef(ca);
    tls.setServerTLSSecretRef(new SecretReference("server", null));
    etcd.getSpec().getBackup().setTls(tls);
    assertThat(SpecValidation.syntax(etcd)).isEmpty();
    tls.setClientTLSSecretRef(new SecretReference("operator", null));
    assertThat(SpecValidation.syntax(etcd)).isEmpty();
  }

  @Test
  void lzwCompressionIsRejectedBecauseTheAgentOnlyReadsIt() {
    Etcd etcd = Etcds.etcd("e", 3);
    cloud.gardener.druid.api.v1alpha1.CompressionSpec c =
        new cloud.gardener.druid.api.v1alpha1.CompressionSpec();
    c.setEnabled(true);
    c.setPolicy(cloud.gardener.druid.api.v1alpha1.CompressionSpec.Policy.LZW);
    etcd.getSpec().getBackup().setCompression(c);
    assertThat(SpecValidation.syntax(etcd)).singleElement().satisfies(p ->
        assertThat(p.description()).startsWith("spec.backup.compression.policy: lzw"));
    c.setPolicy(cloud.gardener.druid.api.v1alpha1.CompressionSpec.Policy.ZLIB);
    assertThat(SpecValidation.syntax(etcd)).isEmpty();
    assertThat(cloud.gardener.druid.operator.model.MemberPodBuilder.build(etcd,
        new cloud.gardener.druid.operator.model.OperatorSettings("img", null), 0)
        .getSpec().getContainers().get(0).getArgs())
        .contains("--compress-snapshots=true", "--compression-policy=zlib");
  }
}
