package cloud.gardener.druid.operator.certificates;

import java.util.Objects;

/**
 * What a member's TLS directory holds: a CA bundle, a certificate and its key, as PEM text.
 * {@link #toString} leaves the key out: this value may end up in a log or an assertion message.
 */
public record TlsMaterial(String caBundle, String certificate, String key) {

  public TlsMaterial {
    Objects.requireNonNull(caBundle, "caBundle");
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(key, "key");
  }

  /** This material with another bundle. */
  public TlsMaterial withBundle(String bundle) {
    return new TlsMaterial(bundle, certificate, key);
  }

  /** This material with the certificate and key of {@code other}. */
  public TlsMaterial withLeafOf(TlsMaterial other) {
    return new TlsMaterial(caBundle, other.certificate, other.key);
  }

  /** The same certificate and key. */
  public boolean sameLeaf(TlsMaterial other) {
    return certificate.equals(other.certificate) && key.equals(other.key);
  }

  @Override
  public String toString() {
    return "TlsMaterial[caBundle=" + caBundle.length() + " chars, certificate="
        + certificate.length() + " chars, key=(hidden)]";
  }
}
