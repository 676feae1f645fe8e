package cloud.gardener.druid.api.v1alpha1;

import cloud.gardener.druid.api.types.StorePrefix;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.SecretReference;

/** An object store holding backups. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StoreSpec {

  /** Upstream's bucket-name rule (a security fix there: no path segments, no traversal). */
  public static final String CONTAINER_PATTERN = "^[a-zA-Z0-9][a-zA-Z0-9._-]{1,61}[a-zA-Z0-9]$";

  @Size(max = 63)
  @Pattern(CONTAINER_PATTERN)
  @JsonPropertyDescription("Bucket or container; for Local a directory below the store root."
      + " 3-63 letters, digits, '.', '_' or '-', starting and ending with a letter or digit.")
  private String container;

  @ValidationRule(value = "isURL(self)", message = "endpoint override must be a valid URL.")
  @JsonPropertyDescription("Endpoint of an S3-compatible store, e.g. http://127.0.0.1:9000.")
  private String endpointOverride;

  @Required
  @Size(max = 1024)
  @ValidationRule(value = StorePrefix.RULE, message = StorePrefix.MESSAGE)
  @JsonPropertyDescription("Prefix of every object of this cluster within the container: a"
      + " relative path (segments separated by '/', none empty, '.' or '..'; no backslash).")
  private String prefix;

  private StorageProvider provider;

  @JsonPropertyDescription("Secret with the credentials of the store.")
  private SecretReference secretRef;

  public String getContainer() {
    return container;
  }

  public void setContainer(String container) {
    this.container = container;
  }

  public String getEndpointOverride() {
    return endpointOverride;
  }

  public void setEndpointOverride(String endpointOverride) {
    this.endpointOverride = endpointOverride;
  }

  public String getPrefix() {
    return prefix;
  }

  public void setPrefix(String prefix) {
    this.prefix = prefix;
  }

  public StorageProvider getProvider() {
    return provider;
  }

  public void setProvider(StorageProvider provider) {
    this.provider = provider;
  }

  public SecretReference getSecretRef() {
    return secretRef;
  }

  public void setSecretRef(SecretReference secretRef) {
    this.secretRef = secretRef;
  }
}
