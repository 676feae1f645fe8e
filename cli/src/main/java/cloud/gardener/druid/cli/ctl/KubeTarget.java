package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Where a command acts, with kubectl's options and precedence: {@code --kubeconfig}, else
 * {@code $KUBECONFIG}, else {@code ~/.kube/config}; {@code --context}, else the current context;
 * {@code -n}, else the context's namespace, else {@code default}.
 */
final class KubeTarget {

  static final String DEFAULT_NAMESPACE = "default";

  @Option(names = "--kubeconfig", paramLabel = "FILE",
      description = "Kubeconfig file (default: $KUBECONFIG, then ~/.kube/config).")
  Path kubeconfig;

  @Option(names = "--context", paramLabel = "CONTEXT",
      description = "Kubeconfig context to use (default: the current context).")
  String context;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
      description = "Namespace (default: the context's namespace, else default).")
  String namespace;

  private Config config;

  /** The client configuration these options select. */
  Config config() {
    if (config == null) {
      config = load();
    }
    return config;
  }

  /** A client that fails fast, as kubectl does, rather than retrying for a minute. */
  KubernetesClient client() {
    Config c = config();
    c.setRequestRetryBackoffLimit(1);
    return new KubernetesClientBuilder().withConfig(c).build();
  }

  /** {@code -n}, else the context's namespace, else {@code default}. */
  String namespace() {
    if (namespace != null && !namespace.isBlank()) {
      return namespace;
    }
    String fromContext = config().getNamespace();
    return fromContext == null || fromContext.isBlank() ? DEFAULT_NAMESPACE : fromContext;
  }

  private Config load() {
    if (kubeconfig == null) {
      if (context != null) {
        List<Path> files = Config.getKubeconfigFilenames().stream().map(Path::of)
            .filter(Files::isReadable).toList();
        if (!files.isEmpty() && files.stream().noneMatch(f -> contextExists(f, context))) {
          throw new UserError("context " + context + " is not in " + files,
              ExitCodes.NOT_FOUND);
        }
      }
      return Config.autoConfigure(context);
    }
    if (!Files.isReadable(kubeconfig)) {
      throw new UserError("cannot read kubeconfig " + kubeconfig, ExitCodes.NOT_FOUND);
    }
    if (context != null && !contextExists(kubeconfig, context)) {
      throw new UserError("context " + context + " is not in " + kubeconfig,
          ExitCodes.NOT_FOUND);
    }
    return Config.fromKubeconfig(context, kubeconfig.toFile());
  }

  private static boolean contextExists(Path file, String context) {
    try {
      io.fabric8.kubernetes.api.model.Config parsed = Serialization.unmarshal(
          Files.readString(file), io.fabric8.kubernetes.api.model.Config.class);
      return parsed.getContexts() != null
          && parsed.getContexts().stream().anyMatch(c -> context.equals(c.getName()));
    } catch (java.io.IOException | RuntimeException e) {
      throw new UserError("cannot read kubeconfig " + file + ": " + e.getMessage());
    }
  }
}
