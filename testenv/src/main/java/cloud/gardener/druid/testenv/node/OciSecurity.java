package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What a pod spec says about a container's user and its read-only mounts, as the kubelet reads it. */
final class OciSecurity {

  private OciSecurity() {
  }

  /** Mounts marked readOnly, and every Secret, ConfigMap, downward API and projected volume. */
  static Set<String> readOnlyMounts(Pod pod, Container c) {
    Set<String> readOnlyVolumes = new HashSet<>();
    List<Volume> volumes = pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes();
    for (Volume v : volumes) {
      if (v.getSecret() != null || v.getConfigMap() != null || v.getDownwardAPI() != null
          || v.getProjected() != null) {
        readOnlyVolumes.add(v.getName());
      }
    }
    Set<String> paths = new HashSet<>();
    if (c.getVolumeMounts() != null) {
      c.getVolumeMounts().forEach(m -> {
        if (Boolean.TRUE.equals(m.getReadOnly()) || readOnlyVolumes.contains(m.getName())) {
          paths.add(m.getMountPath());
        }
      });
    }
    return paths;
  }

  /** The container's runAsUser, else the pod's, else null (the image's user). */
  static Long runAsUser(Pod pod, Container c) {
    if (c.getSecurityContext() != null && c.getSecurityContext().getRunAsUser() != null) {
      return c.getSecurityContext().getRunAsUser();
    }
    return pod.getSpec().getSecurityContext() == null ? null
        : pod.getSpec().getSecurityContext().getRunAsUser();
  }

  /** The container's runAsGroup, else the pod's, else null. */
  static Long runAsGroup(Pod pod, Container c) {
    if (c.getSecurityContext() != null && c.getSecurityContext().getRunAsGroup() != null) {
      return c.getSecurityContext().getRunAsGroup();
    }
    return pod.getSpec().getSecurityContext() == null ? null
        : pod.getSpec().getSecurityContext().getRunAsGroup();
  }
}
