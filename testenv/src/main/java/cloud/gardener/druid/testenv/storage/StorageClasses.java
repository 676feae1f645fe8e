package cloud.gardener.druid.testenv.storage;

import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;

/**
 * The StorageClasses of a local run, all served by {@link HostPathProvisioner} with binding
 * mode {@code Immediate} (the simulator has one node, so waiting for a consumer gains nothing)
 * and reclaim policy {@code Delete}: {@code standard} (the default class), {@code expandable}
 * (allowVolumeExpansion) and {@code encrypted} (parameter {@code encrypted: "true"}; the
 * directory is a directory like any other).
 */
public final class StorageClasses {

  public static final String PROVISIONER = "druid.local/hostpath";
  public static final String STANDARD = "standard";
  public static final String EXPANDABLE = "expandable";
  public static final String ENCRYPTED = "encrypted";
  public static final List<String> ALL = List.of(STANDARD, EXPANDABLE, ENCRYPTED);

  private StorageClasses() {
  }

  /** Creates the classes that do not exist yet. */
  public static void ensure(KubernetesClient client) {
    create(client, STANDARD, false, Map.of(), true);
    create(client, EXPANDABLE, true, Map.of(), false);
    create(client, ENCRYPTED, false, Map.of("encrypted", "true"), false);
  }

  private static void create(KubernetesClient client, String name, boolean expandable,
      Map<String, String> parameters, boolean isDefault) {
    if (client.storage().v1().storageClasses().withName(name).get() != null) {
      return;
    }
    StorageClass storageClass = new StorageClassBuilder()
        .withNewMetadata().withName(name)
        .addToAnnotations("storageclass.kubernetes.io/is-default-class", Boolean.toString(isDefault))
        .endMetadata()
        .withProvisioner(PROVISIONER)
        .withReclaimPolicy("Delete")
        .withVolumeBindingMode("Immediate")
        .withAllowVolumeExpansion(expandable)
        .withParameters(parameters)
        .build();
    try {
      client.storage().v1().storageClasses().resource(storageClass).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }
}
