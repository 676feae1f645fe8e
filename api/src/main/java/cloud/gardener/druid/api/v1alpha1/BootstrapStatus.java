package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** Upstream's record of the source cluster an Etcd joined (schema only here). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BootstrapStatus {

  private String joinedAt;

  private List<Member> members;

  public String getJoinedAt() {
    return joinedAt;
  }

  public void setJoinedAt(String joinedAt) {
    this.joinedAt = joinedAt;
  }

  public List<Member> getMembers() {
    return members;
  }

  public void setMembers(List<Member> members) {
    this.members = members;
  }

  /** A source member at the time of the join. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Member {

    private String name;

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
}
