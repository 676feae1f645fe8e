package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Extra peer URLs a member advertises. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(value = UrlListCustomizer.class, input = "urls")
public class AdditionalPeerUrls {

  @Required
  @Size(max = 253)
  @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?-[0-9]+$")
  @JsonPropertyDescription("Member name: <memberNamePrefix or Etcd name>-<index below replicas>.")
  private String memberName;

  @Required
  @Size(min = 1, max = 5)
  @JsonPropertyDescription("Additional http:// or https:// peer URLs of this member (1 to 5).")
  private List<String> urls;

  public String getMemberName() {
    return memberName;
  }

  public void setMemberName(String memberName) {
    this.memberName = memberName;
  }

  public List<String> getUrls() {
    return urls;
  }

  public void setUrls(List<String> urls) {
    this.urls = urls;
  }
}
