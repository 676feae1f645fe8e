package cloud.gardener.druid.testenv.storage;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The external provisioner and resizer of {@link StorageClasses#PROVISIONER}: a pending PVC of
 * one of its classes gets a hostPath PV {@code pvc-<uid>} (a directory under
 * {@code <workDir>/volumes}) pre-bound to it, which the controller manager's binder then
 * binds; a Released PV with reclaim policy Delete loses its directory and is deleted; a grown
 * request on an expandable class is handled by {@link VolumeExpansion}.
 */
public final class HostPathProvisioner implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HostPathProvisioner.class);
  static final String PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";

  private final KubernetesClient client;
  private final Path volumesDir;
  private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "hostpath-provisioner");
    t.setDaemon(true);
    return t;
  });
  private SharedIndexInformer<PersistentVolumeClaim> claims;
  private SharedIndexInformer<PersistentVolume> volumes;

  public HostPathProvisioner(KubernetesClient client, Path volumesDir) {
    this.client = client;
    this.volumesDir = volumesDir.toAbsolutePath();
  }

  public HostPathProvisioner start() {
    StorageClasses.ensure(client);
    claims = client.persistentVolumeClaims().inAnyNamespace()
        .inform(handler(this::syncClaim), 30_000);
    volumes = client.persistentVolumes().inform(handler(this::syncVolume), 30_000);
    return this;
  }

  private <T> ResourceEventHandler<T> handler(Consumer<T> sync) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        submit(sync, obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        submit(sync, newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        // a deleted PVC shows up as a Released PV
      }
    };
  }

  private <T> void submit(Consumer<T> sync, T obj) {
    worker.submit(() -> {
      try {
        sync.accept(obj);
      } catch (KubernetesClientException e) {
        LOG.debug("storage sync of {} failed, retried on the next event: {}", obj, e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("storage sync failed", e);
      }
    });
  }

  private void syncClaim(PersistentVolumeClaim pvc) {
    StorageClass storageClass = ourClass(pvc.getSpec().getStorageClassName());
    if (storageClass == null || pvc.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    String volumeName = pvc.getSpec().getVolumeName();
    if (volumeName == null || volumeName.isEmpty()) {
      provision(pvc, storageClass);
    } else if (Boolean.TRUE.equals(storageClass.getAllowVolumeExpansion())
        && "Bound".equals(pvc.getStatus() == null ? null : pvc.getStatus().getPhase())) {
      PersistentVolume pv = client.persistentVolumes().withName(volumeName).get();
      if (pv != null) {
        VolumeExpansion.expandController(client, pvc, pv);
      }
    }
  }

  private StorageClass ourClass(String name) {
    if (name == null) {
      return null;
    }
    StorageClass storageClass = client.storage().v1().storageClasses().withName(name).get();
    return storageClass != null && StorageClasses.PROVISIONER.equals(storageClass.getProvisioner())
        ? storageClass : null;
  }

  private void provision(PersistentVolumeClaim pvc, StorageClass storageClass) {
    String name = "pvc-" + pvc.getMetadata().getUid();
    if (client.persistentVolumes().withName(name).get() != null) {
      return;
    }
    Path dir = volumesDir.resolve(name);
    mkdirs(dir);
    PersistentVolume pv = new PersistentVolumeBuilder()
        .withNewMetadata().withName(name)
        .addToAnnotations(PROVISIONED_BY, StorageClasses.PROVISIONER)
        .endMetadata()
        .withNewSpec()
        .withCapacity(pvc.getSpec().getResources().getRequests())
        .withAccessModes(pvc.getSpec().getAccessModes())
        .withStorageClassName(storageClass.getMetadata().getName())
        .withPersistentVolumeReclaimPolicy(storageClass.getReclaimPolicy())
        .withVolumeMode(pvc.getSpec().getVolumeMode())
        .withNewHostPath().withPath(dir.toString()).withType("DirectoryOrCreate").endHostPath()
        .withNewClaimRef().withApiVersion("v1").withKind("PersistentVolumeClaim")
        .withNamespace(pvc.getMetadata().getNamespace()).withName(pvc.getMetadata().getName())
        .withUid(pvc.getMetadata().getUid())
        .endClaimRef()
        .endSpec()
        .build();
    client.persistentVolumes().resource(pv).create();
    LOG.debug("provisioned {} for {}/{}", name, pvc.getMetadata().getNamespace(),
        pvc.getMetadata().getName());
  }

  private void syncVolume(PersistentVolume pv) {
    boolean ours = pv.getMetadata().getAnnotations() != null
        && StorageClasses.PROVISIONER.equals(pv.getMetadata().getAnnotations().get(PROVISIONED_BY));
    String phase = pv.getStatus() == null ? null : pv.getStatus().getPhase();
    if (!ours || !"Released".equals(phase)
        || !"Delete".equals(pv.getSpec().getPersistentVolumeReclaimPolicy())
        || pv.getSpec().getHostPath() == null) {
      return;
    }
    deleteRecursively(Path.of(pv.getSpec().getHostPath().getPath()));
    client.persistentVolumes().withName(pv.getMetadata().getName()).delete();
    LOG.debug("deleted {} and its directory", pv.getMetadata().getName());
  }

  private static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (claims != null) {
      claims.close();
    }
    if (volumes != null) {
      volumes.close();
    }
    worker.shutdownNow();
  }
}
