package cloud.gardener.druid.cli.report;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an object looks like in a support bundle: without managed fields, and for a Secret
 * without its values (each replaced by its size, as readable stringData) and without the last-applied annotation
 * (kubectl apply keeps the whole Secret, values included, in it).
 */
final class Redaction {

  static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  private Redaction() {
  }

  /** The object as YAML, redacted. */
  static String yaml(HasMetadata object) {
    HasMetadata copy = Serialization.clone(object);
    ObjectMeta meta = copy.getMetadata();
    meta.setManagedFields(null);
    if (copy instanceof Secret secret) {
      if (meta.getAnnotations() != null) {
        meta.getAnnotations().remove(LAST_APPLIED);
      }
      Map<String, String> redacted = new LinkedHashMap<>();
      sizes(secret.getData(), true, redacted);
      sizes(secret.getStringData(), false, redacted);
      secret.setData(null);
      secret.setStringData(redacted.isEmpty() ? null : redacted);
    }
    return Serialization.asYaml(copy);
  }

  /** Each value as "REDACTED (N bytes)", readable as stringData. */
  private static void sizes(Map<String, String> values, boolean base64,
      Map<String, String> into) {
    if (values == null) {
      return;
    }
    values.forEach((k, v) -> into.put(k, "REDACTED (" + (v == null ? 0 : base64
        ? Base64.getMimeDecoder().decode(v).length
        : v.getBytes(StandardCharsets.UTF_8).length) + " bytes)"));
  }
}
