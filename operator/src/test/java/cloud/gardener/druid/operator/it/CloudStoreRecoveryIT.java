package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.createEtcdWithVolumes;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.testenv.emulators.AzuriteServer;
import cloud.gardener.druid.testenv.emulators.FakeGcsServer;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quorum-loss recovery of {@link VolumeTaskIT} with the members backing up to the cloud
 * stores' emulators on 127.0.0.1, configured through the Etcd's store and its Secret as
 * upstream's users configure them: every member loses its volume, and a
 * {@code recoverFromQuorumLoss} task brings back every key of the last delta snapshot.
 */
@WithOperator
class CloudStoreRecoveryIT {

  private static final int KEYS = 300;

  @TempDir
  Path work;

  @Test
  void gcsMembersLoseAllVolumesAndAreRecoveredFromFakeGcsServer(KubernetesClient client,
      TestNamespace ns) throws Exception {
    try (FakeGcsServer gcs = new FakeGcsServer(work)) {
      gcs.createBucket("gcs-backups");
      Map<String, String> secret = new HashMap<>(gcs.secret());
      // upstream's GCS secret carries the emulator endpoint
      secret.put("storageAPIEndpoint", gcs.endpoint().toString());
      loseAllVolumesAndRecover(client, ns, "gcs", secret, store -> {
        store.setProvider(StorageProvider.GCP);
        store.setContainer("gcs-backups");
      });
    }
  }

  @Test
  void azureMembersLoseAllVolumesAndAreRecoveredFromAzurite(KubernetesClient client,
      TestNamespace ns) throws Exception {
    try (AzuriteServer abs = new AzuriteServer(work)) {
      new BlobServiceClientBuilder().endpoint(abs.endpoint().toString())
          .credential(new StorageSharedKeyCredential(AzuriteServer.ACCOUNT, AzuriteServer.KEY))
          .buildClient().createBlobContainer("abs-backups");
      loseAllVolumesAndRecover(client, ns, "abs", abs.secret(), store -> {
        store.setProvider(StorageProvider.AZURE);
        store.setContainer("abs-backups");
        store.setEndpointOverride(abs.endpoint().toString());
      });
    }
  }

  private static void loseAllVolumesAndRecover(KubernetesClient client, TestNamespace ns,
      String name, Map<String, String> secret, Consumer<StoreSpec> store) throws Exception {
    client.resource(new SecretBuilder().withNewMetadata().withName(name + "-store")
        .endMetadata().withStringData(secret).build()).create();
    createEtcdWithVolumes(client, ns, name, 3, "standard", (Etcd etcd) -> {
      StoreSpec spec = etcd.getSpec().getBackup().getStore();
      SecretReference ref = new SecretReference();
      ref.setName(name + "-store");
      spec.setSecretRef(ref);
      store.accept(spec);
    });
    awaitRolloutComplete(client, name);

    long revision = QuorumLossRecovery.put(client, name, "/keys/", KEYS);
    QuorumLossRecovery.awaitBackedUp(client, name, revision);
    QuorumLossRecovery.lose(client, name, List.of(name + "-0", name + "-1", name + "-2"));
    QuorumLossRecovery.recover(client, name, name + "-recover");
    QuorumLossRecovery.assertKeys(client, name, "/keys/", KEYS, 3);

    client.resources(Etcd.class).withName(name).delete();
  }
}
