package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/** Extra peer URLs a member advertises. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdditionalPeerUrls {

  @Required
  private String memberName;

  @Required
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
