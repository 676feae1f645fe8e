package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.SecretReference;

/** TLS secrets of one endpoint: the CA bundle, the server certificate and a client certificate. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TLSConfig {

  @Required
  @JsonPropertyDescription("Secret holding the CA bundle (key dataKey, default ca.crt).")
  private KeyedSecretReference tlsCASecretRef;

  @Required
  @JsonPropertyDescription("Secret holding tls.crt and tls.key of the server.")
  private SecretReference serverTLSSecretRef;

  @JsonPropertyDescription("Secret holding tls.crt and tls.key of a client.")
  private SecretReference clientTLSSecretRef;

  public KeyedSecretReference getTlsCASecretRef() {
    return tlsCASecretRef;
  }

  public void setTlsCASecretRef(KeyedSecretReference tlsCASecretRef) {
    this.tlsCASecretRef = tlsCASecretRef;
  }

  public SecretReference getServerTLSSecretRef() {
    return serverTLSSecretRef;
  }

  public void setServerTLSSecretRef(SecretReference serverTLSSecretRef) {
    this.serverTLSSecretRef = serverTLSSecretRef;
  }

  public SecretReference getClientTLSSecretRef() {
    return clientTLSSecretRef;
  }

  public void setClientTLSSecretRef(SecretReference clientTLSSecretRef) {
    this.clientTLSSecretRef = clientTLSSecretRef;
  }
}
