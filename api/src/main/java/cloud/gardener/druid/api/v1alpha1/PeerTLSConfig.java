package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;


/** TLS of the peer endpoint. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PeerTLSConfig extends TLSConfig {

  @JsonPropertyDescription("Skip verification of the SAN of client certificates of peers.")
  private Boolean skipClientSANVerification;

  public Boolean getSkipClientSANVerification() {
    return skipClientSANVerification;
  }

  public void setSkipClientSANVerification(Boolean skipClientSANVerification) {
    this.skipClientSANVerification = skipClientSANVerification;
  }
}
