package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** Delete and recreate the volume of one member; it rejoins from the others or the store. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ReplaceMemberVolumeConfig {

  @Required
  @JsonPropertyDescription("Name of the member (its pod name), e.g. etcd-main-1.")
  private String memberName;

  public String getMemberName() {
    return memberName;
  }

  public void setMemberName(String memberName) {
    this.memberName = memberName;
  }
}
