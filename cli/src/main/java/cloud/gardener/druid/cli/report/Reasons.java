package cloud.gardener.druid.cli.report;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** A short reason for what a support bundle could not collect. */
final class Reasons {

  private Reasons() {
  }

  static String of(Exception e) {
    if (e instanceof KubernetesClientException k && k.getStatus() != null
        && k.getStatus().getMessage() != null) {
      return k.getCode() + " " + k.getStatus().getMessage();
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.getClass().getSimpleName()
        : root.getMessage();
    return message.lines().findFirst().orElse(message);
  }
}
