package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.storage.VolumeExpansion;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccountTokenProjection;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Materialises a pod's volumes as host directories: a PVC is the directory of its bound PV
 * (hostPath or local), a hostPath volume the host directory itself, emptyDir a fresh per-pod
 * directory, Secret, ConfigMap, downwardAPI and
 * projected volumes (including the service-account token, from the TokenRequest API) files in
 * a per-pod directory. Contents are written once, at pod start.
 */
final class PodVolumes {

  /** A volume cannot be set up yet (e.g. its PVC is not bound); the pod waits. */
  static final class NotReady extends RuntimeException {
    NotReady(String message) {
      super(message);
    }
  }

  private final KubernetesClient client;
  private final Pod pod;
  private final Path podDir;
  private final Map<String, Path> hostDirs = new LinkedHashMap<>();
  private final Map<String, String> configTexts = new LinkedHashMap<>();

  PodVolumes(KubernetesClient client, Pod pod, Path podDir) {
    this.client = client;
    this.pod = pod;
    this.podDir = podDir;
  }

  /** Sets up every volume; throws {@link NotReady} while one cannot be set up yet. */
  void prepare() {
    List<Volume> volumes = pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes();
    for (Volume volume : volumes) {
      hostDirs.put(volume.getName(), setUp(volume));
    }
  }

  /** Texts of mounted ConfigMaps, by "configmap <name> key <key>", for the loopback check. */
  Map<String, String> configTexts() {
    return configTexts;
  }

  /** The container's mounts; each is also linked under the pod root. */
  MountPaths mountsFor(Container container, Path podRoot) {
    List<MountPaths.Mount> mounts = new ArrayList<>();
    List<VolumeMount> volumeMounts = container.getVolumeMounts() == null ? List.of()
        : container.getVolumeMounts();
    for (VolumeMount mount : volumeMounts) {
      Path dir = hostDirs.get(mount.getName());
      if (dir == null) {
        throw new IllegalStateException("volume " + mount.getName() + " is not defined");
      }
      Path host = mount.getSubPath() == null || mount.getSubPath().isEmpty() ? dir
          : dir.resolve(mount.getSubPath());
      mounts.add(new MountPaths.Mount(mount.getMountPath(), host));
      link(podRoot, mount.getMountPath(), host);
    }
    return new MountPaths(mounts);
  }

  private Path setUp(Volume volume) {
    if (volume.getPersistentVolumeClaim() != null) {
      return claimDirectory(volume.getPersistentVolumeClaim().getClaimName());
    }
    if (volume.getHostPath() != null) {
      return hostPath(volume);
    }
    Path dir = podDir.resolve("volumes").resolve(volume.getName());
    mkdirs(dir);
    if (volume.getConfigMap() != null) {
      writeConfigMap(dir, volume.getConfigMap().getName(), volume.getConfigMap().getItems(),
          Boolean.TRUE.equals(volume.getConfigMap().getOptional()));
    } else if (volume.getSecret() != null) {
      writeSecret(dir, volume.getSecret().getSecretName(), volume.getSecret().getItems(),
          Boolean.TRUE.equals(volume.getSecret().getOptional()));
    } else if (volume.getDownwardAPI() != null) {
      writeDownward(dir, volume.getDownwardAPI().getItems());
    } else if (volume.getProjected() != null) {
      for (VolumeProjection source : volume.getProjected().getSources()) {
        writeProjection(dir, source);
      }
    }
    return dir; // emptyDir and anything unknown: an empty per-pod directory
  }

  /** A hostPath is the node's own directory, shared by every pod that mounts it (as a kubelet does). */
  private static Path hostPath(Volume volume) {
    Path dir = Path.of(volume.getHostPath().getPath());
    String type = volume.getHostPath().getType();
    if ("DirectoryOrCreate".equals(type)) {
      mkdirs(dir);
    } else if (!java.nio.file.Files.exists(dir) && type != null && !type.isEmpty()) {
      throw new NotReady("hostPath " + dir + " does not exist (type " + type + ")");
    }
    return dir;
  }

  private Path claimDirectory(String claimName) {
    String ns = pod.getMetadata().getNamespace();
    PersistentVolumeClaim pvc = client.persistentVolumeClaims().inNamespace(ns)
        .withName(claimName).get();
    if (pvc == null || pvc.getSpec().getVolumeName() == null
        || !"Bound".equals(pvc.getStatus() == null ? null : pvc.getStatus().getPhase())) {
      throw new NotReady("persistentvolumeclaim \"" + claimName + "\" is not bound");
    }
    PersistentVolume pv = client.persistentVolumes().withName(pvc.getSpec().getVolumeName()).get();
    Path dir = pv == null ? null : hostPathOf(pv);
    if (dir == null) {
      throw new NotReady("persistentvolume " + pvc.getSpec().getVolumeName()
          + " has no hostPath or local path");
    }
    mkdirs(dir);
    VolumeExpansion.completeOnNode(client, pvc, pv);
    return dir;
  }

  private static Path hostPathOf(PersistentVolume pv) {
    if (pv.getSpec().getHostPath() != null) {
      return Path.of(pv.getSpec().getHostPath().getPath());
    }
    if (pv.getSpec().getLocal() != null) {
      return Path.of(pv.getSpec().getLocal().getPath());
    }
    return null;
  }

  private void writeConfigMap(Path dir, String name, List<KeyToPath> items, boolean optional) {
    ConfigMap cm = client.configMaps().inNamespace(pod.getMetadata().getNamespace())
        .withName(name).get();
    if (cm == null) {
      if (optional) {
        return;
      }
      throw new NotReady("configmap \"" + name + "\" not found");
    }
    Map<String, byte[]> files = new LinkedHashMap<>();
    if (cm.getData() != null) {
      cm.getData().forEach((k, v) -> {
        files.put(k, v.getBytes(StandardCharsets.UTF_8));
        configTexts.put("configmap " + name + " key " + k, v);
      });
    }
    if (cm.getBinaryData() != null) {
      cm.getBinaryData().forEach((k, v) -> files.put(k, Base64.getDecoder().decode(v)));
    }
    writeFiles(dir, files, items);
  }

  private void writeSecret(Path dir, String name, List<KeyToPath> items, boolean optional) {
    Secret secret = client.secrets().inNamespace(pod.getMetadata().getNamespace())
        .withName(name).get();
    if (secret == null) {
      if (optional) {
        return;
      }
      throw new NotReady("secret \"" + name + "\" not found");
    }
    Map<String, byte[]> files = new LinkedHashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> files.put(k, Base64.getDecoder().decode(v)));
    }
    if (secret.getStringData() != null) {
      secret.getStringData().forEach((k, v) -> files.put(k, v.getBytes(StandardCharsets.UTF_8)));
    }
    writeFiles(dir, files, items);
  }

  private void writeDownward(Path dir, List<DownwardAPIVolumeFile> items) {
    PodEnvironment fields = new PodEnvironment(client, pod, "", 0);
    for (DownwardAPIVolumeFile item : items == null ? List.<DownwardAPIVolumeFile>of() : items) {
      if (item.getFieldRef() != null) {
        String value = Optional.ofNullable(fields.field(item.getFieldRef().getFieldPath()))
            .orElse("");
        write(dir.resolve(item.getPath()), value.getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private void writeProjection(Path dir, VolumeProjection source) {
    if (source.getServiceAccountToken() != null) {
      writeToken(dir, source.getServiceAccountToken());
    } else if (source.getConfigMap() != null) {
      writeConfigMap(dir, source.getConfigMap().getName(), source.getConfigMap().getItems(),
          Boolean.TRUE.equals(source.getConfigMap().getOptional()));
    } else if (source.getSecret() != null) {
      writeSecret(dir, source.getSecret().getName(), source.getSecret().getItems(),
          Boolean.TRUE.equals(source.getSecret().getOptional()));
    } else if (source.getDownwardAPI() != null) {
      writeDownward(dir, source.getDownwardAPI().getItems());
    }
  }

  private void writeToken(Path dir, ServiceAccountTokenProjection projection) {
    String account = Optional.ofNullable(pod.getSpec().getServiceAccountName()).orElse("default");
    TokenRequestBuilder request = new TokenRequestBuilder().withNewSpec()
        .withExpirationSeconds(Optional.ofNullable(projection.getExpirationSeconds()).orElse(86400L))
        .withNewBoundObjectRef().withApiVersion("v1").withKind("Pod")
        .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid())
        .endBoundObjectRef()
        .endSpec();
    if (projection.getAudience() != null && !projection.getAudience().isEmpty()) {
      request.editSpec().withAudiences(projection.getAudience()).endSpec();
    }
    TokenRequest token = client.serviceAccounts().inNamespace(pod.getMetadata().getNamespace())
        .withName(account).tokenRequest(request.build());
    write(dir.resolve(projection.getPath()),
        token.getStatus().getToken().getBytes(StandardCharsets.UTF_8));
  }

  private static void writeFiles(Path dir, Map<String, byte[]> files, List<KeyToPath> items) {
    if (items == null || items.isEmpty()) {
      files.forEach((key, bytes) -> write(dir.resolve(key), bytes));
      return;
    }
    for (KeyToPath item : items) {
      byte[] bytes = files.get(item.getKey());
      if (bytes != null) {
        write(dir.resolve(item.getPath()), bytes);
      }
    }
  }

  private static void link(Path podRoot, String mountPath, Path target) {
    Path link = podRoot.resolve(mountPath.replaceFirst("^/+", ""));
    try {
      Files.createDirectories(link.getParent());
      Files.deleteIfExists(link);
      Files.createSymbolicLink(link, target);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path file, byte[] bytes) {
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
