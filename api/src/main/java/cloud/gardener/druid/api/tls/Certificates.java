package cloud.gardener.druid.api.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issues the small X.509 certificates of the agent API (BouncyCastle): a CA, and server or
 * client certificates it signs. Keys are EC P-256.
 */
public final class Certificates {

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A certificate and its private key. */
  public record Issued(X509Certificate certificate, PrivateKey key) {
    public String certificatePem() {
      return PemKeys.pem(certificate);
    }

    public String keyPem() {
      return PemKeys.pem(key);
    }
  }

  /** What a leaf certificate is for. */
  public enum Use {
    SERVER, CLIENT,
    /** Server and client, as an etcd certificate used for its peers or by the agent too. */
    PEER
  }

  private Certificates() {
  }

  /** A self-signed CA valid from {@code notBefore} to {@code notAfter}. */
  public static Issued ca(String commonName, Instant notBefore, Instant notAfter) {
    KeyPair keys = keyPair();
    X500Principal name = new X500Principal("CN=" + commonName);
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(),
          Date.from(notBefore), Date.from(notAfter), name, keys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true,
              new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(Extension.subjectKeyIdentifier, false,
              ext.createSubjectKeyIdentifier(keys.getPublic()));
      return new Issued(sign(b, keys.getPrivate()), keys.getPrivate());
    } catch (GeneralSecurityException | org.bouncycastle.cert.CertIOException e) {
      throw new IllegalStateException("cannot issue a CA certificate", e);
    }
  }

  /**
   * A certificate signed by {@code ca} for {@code use}, named {@code commonName} and (for a
   * server) {@code dnsNames} (IP address literals become IP names), valid from {@code notBefore} to {@code notAfter}.
   */
  public static Issued issue(Issued ca, String commonName, List<String> dnsNames, Use use,
      Instant notBefore, Instant notAfter) {
    KeyPair keys = keyPair();
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
          ca.certificate().getSubjectX500Principal(), serial(), Date.from(notBefore),
          Date.from(notAfter), new X500Principal("CN=" + commonName), keys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(switch (use) {
            case SERVER -> new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth};
            case CLIENT -> new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth};
            case PEER -> new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth,
                KeyPurposeId.id_kp_clientAuth};
          }))
          .addExtension(Extension.authorityKeyIdentifier, false,
              ext.createAuthorityKeyIdentifier(ca.certificate()));
      if (!dnsNames.isEmpty()) {
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(
            dnsNames.stream().map(Certificates::generalName).toArray(GeneralName[]::new)));
      }
      return new Issued(sign(b, ca.key()), keys.getPrivate());
    } catch (GeneralSecurityException | org.bouncycastle.cert.CertIOException e) {
      throw new IllegalStateException("cannot issue the certificate " + commonName, e);
    }
  }

  /** Whether {@code ca}'s key signed {@code cert}. */
  public static boolean signedBy(X509Certificate cert, X509Certificate ca) {
    try {
      cert.verify(ca.getPublicKey());
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** An IP address literal as an IP name, anything else as a DNS name. */
  private static GeneralName generalName(String name) {
    boolean ip = name.contains(":") || name.chars().allMatch(c -> c == '.' || Character.isDigit(c));
    return new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, name);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
      throws GeneralSecurityException {
    try {
      String algorithm = signer.getAlgorithm().equals("EC") ? "SHA256withECDSA"
          : "SHA256withRSA";
      return new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder(algorithm).build(signer)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static KeyPair keyPair() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot generate an EC key", e);
    }
  }

  private static BigInteger serial() {
    return new BigInteger(127, RANDOM).add(BigInteger.ONE);
  }
}
