package cloud.gardener.druid.api.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * PEM private keys and certificates as users have them, for every TLS identity of the agent
 * and the operator: unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}: RSA, EC, Ed25519), PKCS#1
 * RSA ({@code BEGIN RSA PRIVATE KEY}, what Gardener's secrets manager writes) and SEC1 EC
 * ({@code BEGIN EC PRIVATE KEY}, with or without the {@code EC PARAMETERS} block openssl puts
 * before it), read by BouncyCastle's PEM parser. Errors name the source, never the content.
 */
public final class PemKeys {

  private PemKeys() {
  }

  /**
   * The first private key in {@code pem}.
   *
   * @param source what the bytes are, for error messages (a file or a secret's key)
   */
  public static PrivateKey privateKey(byte[] pem, String source) throws GeneralSecurityException {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    try (PEMParser parser = parser(pem)) {
      for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
        if (o instanceof PEMKeyPair pair) {
          return converter.getPrivateKey(pair.getPrivateKeyInfo());
        }
        if (o instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        }
        if (o instanceof PEMEncryptedKeyPair || o instanceof PKCS8EncryptedPrivateKeyInfo) {
          throw new GeneralSecurityException(source + " holds an encrypted private key;"
              + " the key must be unencrypted (PKCS#8, PKCS#1 RSA or SEC1 EC)");
        }
        if (!(o instanceof ASN1ObjectIdentifier)) { // EC PARAMETERS before a SEC1 key
          throw new GeneralSecurityException(source + " holds a "
              + o.getClass().getSimpleName() + " where a private key was expected");
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new GeneralSecurityException(source + " is not a readable PEM private key ("
          + e.getClass().getSimpleName() + ")", e);
    }
    throw new GeneralSecurityException(source + " holds no PEM private key (expected BEGIN"
        + " PRIVATE KEY, BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY)");
  }

  /** Every certificate in {@code pem}, in order (a chain or a CA bundle); at least one. */
  public static List<X509Certificate> certificates(byte[] pem, String source)
      throws GeneralSecurityException {
    List<X509Certificate> certs = new ArrayList<>();
    try {
      for (var c : CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem))) {
        certs.add((X509Certificate) c);
      }
    } catch (CertificateException e) {
      throw new GeneralSecurityException(source + " holds no readable PEM certificate: "
          + e.getMessage(), e);
    }
    if (certs.isEmpty()) {
      throw new GeneralSecurityException(source + " holds no PEM certificate");
    }
    return certs;
  }

  /** PEM text of certificates or a key (PKCS#8 for keys). */
  public static String pem(Object... objects) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      for (Object o : objects) {
        if (o instanceof PrivateKey key) {
          writer.writeObject(new JcaPKCS8Generator(key, null));
        } else {
          writer.writeObject(o);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot write PEM", e);
    }
    return out.toString();
  }

  private static PEMParser parser(byte[] pem) {
    return new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)));
  }
}
