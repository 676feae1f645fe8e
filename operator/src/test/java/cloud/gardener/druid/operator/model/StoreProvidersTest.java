package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.operator.etcd.SpecValidation;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.SecretReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class StoreProvidersTest {

  @ParameterizedTest
  @CsvSource({
      "LOCAL, Local", "S3, S3", "AWS, S3", "ECS, S3", "DELL, S3", "OCS, S3", "OPENSHIFT, S3",
      "GCS, GCS", "GCP, GCS", "ABS, ABS", "AZURE, ABS", "STACKIT, S3", "S3_LOWER_CASE, S3",
      "ECS_LOWER_CASE, S3", "OCS_LOWER_CASE, S3", "GCS_LOWER_CASE, GCS", "ABS_LOWER_CASE, ABS"})
  void eachServedProviderGivesTheMemberAgentItsStoreAndSecret(StorageProvider provider,
      String agentProvider) {
    Etcd etcd = etcdBackingUpTo(provider);

    assertThat(SpecValidation.syntax(etcd)).isEmpty();
    assertThat(AgentArgs.build(etcd)).contains("--store-provider=" + agentProvider,
        "--store-prefix=shoot--dev--etcd-main");
    if (provider != StorageProvider.LOCAL) {
      assertThat(AgentArgs.build(etcd)).contains("--store-container=backups",
          "--store-secret-dir=" + MemberLayout.STORE_SECRET_DIR);
    }
  }

  @ParameterizedTest
  @EnumSource(value = StorageProvider.class, names = {"SWIFT", "OPENSTACK", "OSS", "ALICLOUD",
      "SWIFT_LOWER_CASE", "OSS_LOWER_CASE"})
  void providersWithoutAStoreAreRefusedByFieldNeverHandedToTheS3Client(
      StorageProvider provider) {
    Etcd etcd = etcdBackingUpTo(provider);

    assertThat(SpecValidation.syntax(etcd)).singleElement().satisfies(p -> {
      assertThat(p.code()).isEqualTo("ERR_INVALID_SPEC");
      assertThat(p.description())
          .startsWith("spec.backup.store.provider: " + StoreProviders.spelling(provider) + " (")
          .contains("has no backup store", "supported: Local, S3");
    });
    assertThat(StoreProviders.of(etcd.getSpec().getBackup().getStore()))
        .isInstanceOf(StoreProviders.Refused.class);
  }

  @ParameterizedTest
  @EnumSource(StorageProvider.class)
  void everyProviderIsEitherServedOrRefused(StorageProvider provider) {
    StoreSpec store = etcdBackingUpTo(provider).getSpec().getBackup().getStore();
    assertThat(StoreProviders.of(store)).isNotNull();
  }

  private static Etcd etcdBackingUpTo(StorageProvider provider) {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    StoreSpec store = new StoreSpec();
    store.setProvider(provider);
    store.setContainer("backups");
    store.setPrefix("shoot--dev--etcd-main");
    store.setSecretRef(new SecretReference("etcd-backup", null));
    etcd.getSpec().getBackup().setStore(store);
    return etcd;
  }
}
