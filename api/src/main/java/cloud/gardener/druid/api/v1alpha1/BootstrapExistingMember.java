package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** A member of a source cluster (upstream's BootstrapExistingMember). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(value = UrlListCustomizer.class, input = "peerUrls")
public class BootstrapExistingMember {

  @Required
  @Size(min = 1, max = 253)
  @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
  @JsonPropertyDescription("The etcd member name in the source cluster.")
  private String name;

  @Required
  @Size(min = 1, max = 5)
  @JsonPropertyDescription("Peer URLs of this member.")
  private List<String> peerUrls;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public List<String> getPeerUrls() {
    return peerUrls;
  }

  public void setPeerUrls(List<String> peerUrls) {
    this.peerUrls = peerUrls;
  }
}
