package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A reference to one key of a Secret. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KeyedSecretReference {

  @Required
  private String name;

  private String namespace;

  @JsonPropertyDescription("Key within the secret (default ca.crt).")
  private String dataKey;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public String getDataKey() {
    return dataKey;
  }

  public void setDataKey(String dataKey) {
    this.dataKey = dataKey;
  }
}
