package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceFieldSelector;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The environment of a container process: a minimal host part (PATH, HOME, LANG), what a
 * kubelet adds (KUBERNETES_SERVICE_HOST/PORT pointing at the local API server on 127.0.0.1,
 * HOSTNAME), the container's env and envFrom with the downward API resolved, and — when the
 * service-account token is mounted — the settings that make fabric8 use it in-cluster.
 */
final class PodEnvironment {

  static final String SERVICE_ACCOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";

  private final KubernetesClient client;
  private final Pod pod;
  private final String podIp;
  private final int apiServerPort;

  PodEnvironment(KubernetesClient client, Pod pod, String podIp, int apiServerPort) {
    this.client = client;
    this.pod = pod;
    this.podIp = podIp;
    this.apiServerPort = apiServerPort;
  }

  /** The full environment; values are already mount-path rewritten. */
  Map<String, String> forContainer(Container container, MountPaths mounts, Path podRoot) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
    env.put("LANG", "C.UTF-8");
    env.put("HOME", podRoot.toString());
    env.put("HOSTNAME", Optional.ofNullable(pod.getSpec().getHostname())
        .orElse(pod.getMetadata().getName()));
    env.put("KUBERNETES_SERVICE_HOST", "127.0.0.1");
    env.put("KUBERNETES_SERVICE_PORT", Integer.toString(apiServerPort));
    env.put("KUBERNETES_SERVICE_PORT_HTTPS", Integer.toString(apiServerPort));
    env.put(MountPaths.POD_ROOT_ENV, podRoot.toString());
    serviceAccount(mounts).ifPresent(env::putAll);
    if (container.getEnvFrom() != null) {
      container.getEnvFrom().forEach(from -> env.putAll(envFrom(from)));
    }
    if (container.getEnv() != null) {
      for (EnvVar var : container.getEnv()) {
        String value = var.getValueFrom() != null
            ? resolve(var.getValueFrom(), container)
            : expand(var.getValue() == null ? "" : var.getValue(), env);
        if (value != null) {
          env.put(var.getName(), mounts.rewrite(value));
        }
      }
    }
    return env;
  }

  private Optional<Map<String, String>> serviceAccount(MountPaths mounts) {
    String token = mounts.rewrite(SERVICE_ACCOUNT_PATH + "/token");
    if (token.startsWith(SERVICE_ACCOUNT_PATH)) {
      return Optional.empty();
    }
    return Optional.of(Map.of(
        "KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN", token,
        "KUBERNETES_CERTS_CA_FILE", mounts.rewrite(SERVICE_ACCOUNT_PATH + "/ca.crt"),
        "KUBERNETES_NAMESPACE", pod.getMetadata().getNamespace(),
        "KUBERNETES_AUTH_TRYKUBECONFIG", "false"));
  }

  /** {@code $(VAR)} references to earlier variables, as the kubelet expands them. */
  static String expand(String value, Map<String, String> env) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < value.length()) {
      if (value.startsWith("$$", i)) {
        out.append('$');
        i += 2;
      } else if (value.startsWith("$(", i) && value.indexOf(')', i) > 0) {
        int end = value.indexOf(')', i);
        String name = value.substring(i + 2, end);
        out.append(env.containsKey(name) ? env.get(name) : value.substring(i, end + 1));
        i = end + 1;
      } else {
        out.append(value.charAt(i++));
      }
    }
    return out.toString();
  }

  private Map<String, String> envFrom(EnvFromSource from) {
    String prefix = from.getPrefix() == null ? "" : from.getPrefix();
    Map<String, String> values = new LinkedHashMap<>();
    String ns = pod.getMetadata().getNamespace();
    if (from.getConfigMapRef() != null) {
      ConfigMap cm = client.configMaps().inNamespace(ns).withName(from.getConfigMapRef().getName()).get();
      if (cm != null && cm.getData() != null) {
        cm.getData().forEach((k, v) -> values.put(prefix + k, v));
      }
    }
    if (from.getSecretRef() != null) {
      Secret secret = client.secrets().inNamespace(ns).withName(from.getSecretRef().getName()).get();
      if (secret != null && secret.getData() != null) {
        secret.getData().forEach((k, v) -> values.put(prefix + k, decode(v)));
      }
    }
    return values;
  }

  private String resolve(EnvVarSource source, Container container) {
    String ns = pod.getMetadata().getNamespace();
    if (source.getFieldRef() != null) {
      return field(source.getFieldRef().getFieldPath());
    }
    if (source.getResourceFieldRef() != null) {
      return resource(source.getResourceFieldRef(), container);
    }
    if (source.getConfigMapKeyRef() != null) {
      ConfigMap cm = client.configMaps().inNamespace(ns)
          .withName(source.getConfigMapKeyRef().getName()).get();
      return cm == null || cm.getData() == null ? null
          : cm.getData().get(source.getConfigMapKeyRef().getKey());
    }
    if (source.getSecretKeyRef() != null) {
      Secret secret = client.secrets().inNamespace(ns)
          .withName(source.getSecretKeyRef().getName()).get();
      String data = secret == null || secret.getData() == null ? null
          : secret.getData().get(source.getSecretKeyRef().getKey());
      return data == null ? null : decode(data);
    }
    return null;
  }

  /** The downward API's field paths. */
  String field(String path) {
    switch (path) {
      case "metadata.name": return pod.getMetadata().getName();
      case "metadata.namespace": return pod.getMetadata().getNamespace();
      case "metadata.uid": return pod.getMetadata().getUid();
      case "spec.nodeName": return pod.getSpec().getNodeName();
      case "spec.serviceAccountName": return pod.getSpec().getServiceAccountName();
      case "status.podIP":
      case "status.podIPs": return podIp;
      case "status.hostIP":
      case "status.hostIPs": return "127.0.0.1";
      default: return mapField(path);
    }
  }

  private String mapField(String path) {
    String key = path.replaceFirst("^metadata\\.(labels|annotations)\\['(.*)']$", "$2");
    if (path.startsWith("metadata.labels[") && pod.getMetadata().getLabels() != null) {
      return pod.getMetadata().getLabels().get(key);
    }
    if (path.startsWith("metadata.annotations[") && pod.getMetadata().getAnnotations() != null) {
      return pod.getMetadata().getAnnotations().get(key);
    }
    return null;
  }

  private static String resource(ResourceFieldSelector selector, Container container) {
    String[] parts = selector.getResource().split("\\.", 2);
    Map<String, Quantity> values = container.getResources() == null ? null
        : parts[0].equals("limits") ? container.getResources().getLimits()
        : container.getResources().getRequests();
    Quantity quantity = values == null ? null : values.get(parts[1]);
    if (quantity == null) {
      quantity = new Quantity(parts[1].equals("cpu") ? "2" : "24Gi"); // the node's allocatable
    }
    BigDecimal divisor = selector.getDivisor() == null ? BigDecimal.ONE
        : selector.getDivisor().getNumericalAmount();
    return quantity.getNumericalAmount().divide(divisor, 0, RoundingMode.CEILING).toPlainString();
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
