package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Objects;

/**
 * Where the certificates of one TLS endpoint of an Etcd are (extension of this operator): the
 * step of a CA rotation the operator carries out, recorded before the step is taken, and the
 * CAs the members are given to trust and the CA whose certificate they are given to serve.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CertificateRotation {

  public static final String TLS_PEER = "peer";

  /** Step 1 of 3: the members are given the old and the new CA (a restart of each). */
  public static final String PHASE_TRUSTING_OLD_AND_NEW = "TrustingOldAndNew";
  /** Step 2 of 3: the members are given the certificate of the new CA (no restart). */
  public static final String PHASE_SERVING_NEW = "ServingNew";
  /** Step 3 of 3: the members are given the new CA alone (a restart of each). */
  public static final String PHASE_TRUSTING_NEW_ONLY = "TrustingNewOnly";
  /** No rotation in progress: every member trusts {@code trustedCAs} and serves {@code servedBy}. */
  public static final String PHASE_COMPLETED = "Completed";

  @JsonPropertyDescription("The endpoint: peer.")
  private String tls;

  @JsonPropertyDescription("TrustingOldAndNew, ServingNew, TrustingNewOnly (the steps of a CA"
      + " rotation, each recorded before it is taken) or Completed.")
  private String phase;

  @JsonPropertyDescription("The CAs (subject and SHA-256 fingerprint) in the bundle the members"
      + " are given; each member trusts them once it has restarted in this phase.")
  private List<String> trustedCAs;

  @JsonPropertyDescription("The CA (subject and SHA-256 fingerprint) that issued the"
      + " certificate the members are given to serve.")
  private String servedBy;

  @JsonPropertyDescription("What the step waits for, or what it did.")
  private String message;

  @JsonPropertyDescription("When the phase was entered (RFC 3339).")
  private String lastTransitionTime;

  public CertificateRotation() {
  }

  public CertificateRotation(String tls, String phase, List<String> trustedCAs, String servedBy,
      String message, String lastTransitionTime) {
    this.tls = tls;
    this.phase = phase;
    this.trustedCAs = trustedCAs;
    this.servedBy = servedBy;
    this.message = message;
    this.lastTransitionTime = lastTransitionTime;
  }

  public String getTls() {
    return tls;
  }

  public void setTls(String tls) {
    this.tls = tls;
  }

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public List<String> getTrustedCAs() {
    return trustedCAs;
  }

  public void setTrustedCAs(List<String> trustedCAs) {
    this.trustedCAs = trustedCAs;
  }

  public String getServedBy() {
    return servedBy;
  }

  public void setServedBy(String servedBy) {
    this.servedBy = servedBy;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  /** Equal but for the time: the same record of the same step. */
  public boolean sameStep(CertificateRotation other) {
    return other != null && Objects.equals(tls, other.tls) && Objects.equals(phase, other.phase)
        && Objects.equals(trustedCAs, other.trustedCAs)
        && Objects.equals(servedBy, other.servedBy) && Objects.equals(message, other.message);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CertificateRotation other && sameStep(other)
        && Objects.equals(lastTransitionTime, other.lastTransitionTime);
  }

  @Override
  public int hashCode() {
    return Objects.hash(tls, phase, trustedCAs, servedBy, message, lastTransitionTime);
  }
}
