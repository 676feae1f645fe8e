package cloud.gardener.druid.operator.certificates;

import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.tls.PemKeys;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reading the certificates of a bundle and a leaf: their fingerprints, which CA of a bundle
 * issued a leaf, whether a key belongs to a certificate. Unreadable PEM counts as no
 * certificate (the planner then waits, naming the Secret).
 */
final class Pems {

  private Pems() {
  }

  /** The certificates of {@code pem}, in order; empty when there is none readable. */
  static List<X509Certificate> certificates(String pem) {
    try {
      return PemKeys.certificates(pem.getBytes(StandardCharsets.US_ASCII), "bundle");
    } catch (GeneralSecurityException e) {
      return List.of();
    }
  }

  /** The SHA-256 fingerprints of a bundle's certificates, in order, without duplicates. */
  static Set<String> fingerprints(String bundle) {
    Set<String> result = new LinkedHashSet<>();
    certificates(bundle).forEach(c -> result.add(fingerprint(c)));
    return result;
  }

  static String fingerprint(X509Certificate certificate) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(certificate.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot fingerprint a certificate", e);
    }
  }

  /** {@code old}'s certificates followed by those of {@code added} it lacks, as PEM. */
  static String union(String old, String added) {
    List<X509Certificate> all = new ArrayList<>(certificates(old));
    Set<String> seen = fingerprints(old);
    for (X509Certificate c : certificates(added)) {
      if (seen.add(fingerprint(c))) {
        all.add(c);
      }
    }
    return PemKeys.pem(all.toArray());
  }

  /** The CA of {@code bundle} whose key signed the first certificate of {@code leaf}. */
  static Optional<X509Certificate> issuer(String leaf, String bundle) {
    List<X509Certificate> chain = certificates(leaf);
    if (chain.isEmpty()) {
      return Optional.empty();
    }
    X509Certificate cert = chain.get(0);
    return certificates(bundle).stream()
        .filter(ca -> ca.getSubjectX500Principal().equals(cert.getIssuerX500Principal()))
        .filter(ca -> Certificates.signedBy(cert, ca))
        .findFirst();
  }

  /** Whether {@code key} is the private key of the first certificate of {@code certificate}. */
  static boolean keyMatches(String certificate, String key) {
    List<X509Certificate> chain = certificates(certificate);
    if (chain.isEmpty()) {
      return false;
    }
    try {
      PrivateKey privateKey = PemKeys.privateKey(key.getBytes(StandardCharsets.US_ASCII), "key");
      String algorithm = privateKey.getAlgorithm().equals("EC") ? "SHA256withECDSA"
          : privateKey.getAlgorithm().equals("Ed25519") ? "Ed25519" : "SHA256with"
          + privateKey.getAlgorithm();
      byte[] probe = "druid-key-check".getBytes(StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(privateKey);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(chain.get(0).getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** "CN=etcd-peer-ca (sha256 1a2b3c4d5e6f7a8b)": a CA as status and events name it. */
  static String describe(X509Certificate ca) {
    return ca.getSubjectX500Principal().getName() + " (sha256 "
        + fingerprint(ca).substring(0, 16) + ")";
  }

  static List<String> describeAll(String bundle) {
    return certificates(bundle).stream().map(Pems::describe).toList();
  }
}
