package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonProperty;

/** Bring back a cluster that lost quorum from the newest data available. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RecoverFromQuorumLossConfig {

  @JsonPropertyDescription("Where the data comes from: Auto (newest of surviving members and the"
      + " store), Member or Store. Default Auto.")
  private Source source;

  @JsonPropertyDescription("With source Member: the member whose data is used.")
  private String memberName;


  public Source getSource() {
    return source;
  }

  public void setSource(Source source) {
    this.source = source;
  }

  public String getMemberName() {
    return memberName;
  }

  public void setMemberName(String memberName) {
    this.memberName = memberName;
  }
  /** Source of the data of the recovered cluster. */
  public enum Source {
    @JsonProperty("Auto")
    AUTO,
    @JsonProperty("Member")
    MEMBER,
    @JsonProperty("Store")
    STORE
  }
}
