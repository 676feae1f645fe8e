package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** The existing cluster an Etcd joins (upstream; refused here until the join is built). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(value = UrlListCustomizer.class, input = "clientEndpoints")
public class BootstrapWithExistingCluster {

  @Required
  @Size(min = 1, max = 10)
  @JsonPropertyDescription("Client endpoints of the source cluster for member management.")
  private List<String> clientEndpoints;

  @Required
  @Size(min = 1, max = 10)
  @JsonPropertyDescription("The existing members of the source cluster.")
  private List<BootstrapExistingMember> members;

  public List<String> getClientEndpoints() {
    return clientEndpoints;
  }

  public void setClientEndpoints(List<String> clientEndpoints) {
    this.clientEndpoints = clientEndpoints;
  }

  public List<BootstrapExistingMember> getMembers() {
    return members;
  }

  public void setMembers(List<BootstrapExistingMember> members) {
    this.members = members;
  }
}
