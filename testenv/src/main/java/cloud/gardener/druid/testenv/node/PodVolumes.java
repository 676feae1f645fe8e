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
import java.util.Set;
import java.util.HashSet;

/**
 * Materialises a pod's volumes as host directories: a PVC is the directory of its bound PV
 * (hostPath or local), a hostPath volume the host directory itself, emptyDir a fresh per-pod
 * directory, Secret, ConfigMap, downwardAPI and
 * projected volumes (including the service-account token, from the TokenRequest API) files in
 * a per-pod directory, each in versions as the kubelet's atomic writer ({@link VolumeFiles});
 * {@link #refresh()} writes a new version when a Secret or ConfigMap changed.
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
  private final Map<String, byte[]> tokens = new LinkedHashMap<>();
  /** Versions a subPath mount resolved to: the kubelet's bind mount keeps them, so do we. */
  private final Set<Path> pinned = new HashSet<>();

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
          : pinnedSubPath(dir, mount.getSubPath());
      mounts.add(new MountPaths.Mount(mount.getMountPath(), host));
      link(podRoot, mount.getMountPath(), host);
    }
    return new MountPaths(mounts);
  }

  /** A subPath of a versioned volume stays on the version of container start, as in a kubelet. */
  private Path pinnedSubPath(Path dir, String subPath) {
    VolumeFiles.checkPath(subPath);
    Path version = VolumeFiles.current(dir);
    if (version == null) {
      return dir.resolve(subPath);
    }
    try {
      pinned.add(version.toRealPath());
      return version.toRealPath().resolve(subPath);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    Map<String, String> texts = new LinkedHashMap<>();
    Optional<Map<String, byte[]>> payload = payloadOf(volume, texts);
    if (payload.isPresent()) {
      VolumeFiles.write(dir, payload.get(), pinned);
      configTexts.putAll(texts);
    }
    return dir; // emptyDir and anything unknown: an empty per-pod directory
  }

  /**
   * Writes the current contents of every Secret, ConfigMap and projected volume whose source
   * changed, as a new version (the kubelet's atomic swap). A source that is gone keeps its
   * last version; contents naming a non-loopback address are refused.
   *
   * @return the names of the volumes given a new version
   */
  List<String> refresh() {
    List<String> refreshed = new ArrayList<>();
    for (Volume volume : listOf(pod.getSpec().getVolumes())) {
      if (!refreshable(volume)) {
        continue;
      }
      Path dir = hostDirs.get(volume.getName());
      Map<String, String> texts = new LinkedHashMap<>();
      Optional<Map<String, byte[]>> payload;
      try {
        payload = payloadOf(volume, texts);
      } catch (NotReady e) {
        continue;
      }
      if (payload.isEmpty() || VolumeFiles.holds(dir, payload.get())) {
        continue;
      }
      Optional<String> refused = LoopbackGuard.describeFirst(texts);
      if (refused.isPresent()) {
        throw new IllegalStateException(refused.get());
      }
      VolumeFiles.write(dir, payload.get(), pinned);
      refreshed.add(volume.getName());
    }
    return refreshed;
  }

  /** True when the pod mounts {@code kind} ("Secret" or "ConfigMap") {@code name}. */
  boolean uses(String kind, String name) {
    for (Volume volume : listOf(pod.getSpec().getVolumes())) {
      if ("Secret".equals(kind) && volume.getSecret() != null
          && name.equals(volume.getSecret().getSecretName())
          || "ConfigMap".equals(kind) && volume.getConfigMap() != null
          && name.equals(volume.getConfigMap().getName())) {
        return true;
      }
      if (volume.getProjected() != null && volume.getProjected().getSources().stream()
          .anyMatch(s -> "Secret".equals(kind) && s.getSecret() != null
              && name.equals(s.getSecret().getName())
              || "ConfigMap".equals(kind) && s.getConfigMap() != null
              && name.equals(s.getConfigMap().getName()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean refreshable(Volume volume) {
    return volume.getSecret() != null || volume.getConfigMap() != null
        || volume.getProjected() != null;
  }

  private Optional<Map<String, byte[]>> payloadOf(Volume volume, Map<String, String> texts) {
    Map<String, byte[]> files = new LinkedHashMap<>();
    if (volume.getConfigMap() != null) {
      configMapFiles(files, volume.getConfigMap().getName(), volume.getConfigMap().getItems(),
          Boolean.TRUE.equals(volume.getConfigMap().getOptional()), texts);
    } else if (volume.getSecret() != null) {
      secretFiles(files, volume.getSecret().getSecretName(), volume.getSecret().getItems(),
          Boolean.TRUE.equals(volume.getSecret().getOptional()));
    } else if (volume.getDownwardAPI() != null) {
      downwardFiles(files, volume.getDownwardAPI().getItems());
    } else if (volume.getProjected() != null) {
      for (VolumeProjection source : volume.getProjected().getSources()) {
        projectionFiles(files, volume.getName(), source, texts);
      }
    } else {
      return Optional.empty();
    }
    return Optional.of(files);
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

  private void configMapFiles(Map<String, byte[]> out, String name, List<KeyToPath> items,
      boolean optional, Map<String, String> texts) {
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
        texts.put("configmap " + name + " key " + k, v);
      });
    }
    if (cm.getBinaryData() != null) {
      cm.getBinaryData().forEach((k, v) -> files.put(k, Base64.getDecoder().decode(v)));
    }
    select(out, files, items);
  }

  private void secretFiles(Map<String, byte[]> out, String name, List<KeyToPath> items,
      boolean optional) {
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
    select(out, files, items);
  }

  private void downwardFiles(Map<String, byte[]> out, List<DownwardAPIVolumeFile> items) {
    PodEnvironment fields = new PodEnvironment(client, pod, "", 0);
    for (DownwardAPIVolumeFile item : listOf(items)) {
      if (item.getFieldRef() != null) {
        String value = Optional.ofNullable(fields.field(item.getFieldRef().getFieldPath()))
            .orElse("");
        out.put(item.getPath(), value.getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private void projectionFiles(Map<String, byte[]> out, String volume, VolumeProjection source,
      Map<String, String> texts) {
    if (source.getServiceAccountToken() != null) {
      ServiceAccountTokenProjection projection = source.getServiceAccountToken();
      out.put(projection.getPath(), tokens.computeIfAbsent(volume + "/" + projection.getPath(),
          k -> token(projection)));
    } else if (source.getConfigMap() != null) {
      configMapFiles(out, source.getConfigMap().getName(), source.getConfigMap().getItems(),
          Boolean.TRUE.equals(source.getConfigMap().getOptional()), texts);
    } else if (source.getSecret() != null) {
      secretFiles(out, source.getSecret().getName(), source.getSecret().getItems(),
          Boolean.TRUE.equals(source.getSecret().getOptional()));
    } else if (source.getDownwardAPI() != null) {
      downwardFiles(out, source.getDownwardAPI().getItems());
    }
  }

  /** A token from the TokenRequest API, asked once per pod (a refresh keeps it). */
  private byte[] token(ServiceAccountTokenProjection projection) {
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
    return token.getStatus().getToken().getBytes(StandardCharsets.UTF_8);
  }

  private static void select(Map<String, byte[]> out, Map<String, byte[]> files,
      List<KeyToPath> items) {
    if (items == null || items.isEmpty()) {
      out.putAll(files);
      return;
    }
    for (KeyToPath item : items) {
      byte[] bytes = files.get(item.getKey());
      if (bytes != null) {
        out.put(item.getPath(), bytes);
      }
    }
  }

  private static <T> List<T> listOf(List<T> list) {
    return list == null ? List.of() : list;
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

  private static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
