package cloud.gardener.druid.operator.agent;

import io.fabric8.kubernetes.api.model.Secret;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** PEM certificates and PKCS#8 keys from Secrets, turned into an {@link SSLContext}. */
final class TlsMaterial {

  private TlsMaterial() {
  }

  /** The decoded value of {@code key} in the secret. */
  static byte[] data(Secret secret, String key) {
    String value = secret.getData() == null ? null : secret.getData().get(key);
    if (value != null) {
      return Base64.getDecoder().decode(value);
    }
    String plain = secret.getStringData() == null ? null : secret.getStringData().get(key);
    if (plain != null) {
      return plain.getBytes(StandardCharsets.UTF_8);
    }
    throw new AgentClient.AgentException("secret " + secret.getMetadata().getName()
        + " has no key " + key);
  }

  /**
   * Trusts server certificates the CA issued for the dialled address or a host of
   * {@code peerDomain}; presents the identity when one is given.
   */
  static SSLContext context(byte[] caPem, Optional<byte[]> certPem, Optional<byte[]> keyPem,
      String peerDomain) {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      int i = 0;
      for (Certificate ca : certificates(caPem)) {
        trust.setCertificateEntry("ca-" + i++, ca);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      X509TrustManager pkix = (X509TrustManager) tmf.getTrustManagers()[0];
      KeyManager[] keys = null;
      if (certPem.isPresent() && keyPem.isPresent()) {
        KeyStore identity = KeyStore.getInstance("PKCS12");
        identity.load(null, null);
        identity.setKeyEntry("identity", privateKey(keyPem.get()), new char[0],
            certificates(certPem.get()).toArray(Certificate[]::new));
        KeyManagerFactory kmf =
            KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(identity, new char[0]);
        keys = kmf.getKeyManagers();
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys, new TrustManager[] {new AgentServerTrust(pkix, peerDomain)}, null);
      return context;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new AgentClient.AgentException("cannot build the agent TLS context: " + e, e);
    }
  }

  private static Collection<? extends Certificate> certificates(byte[] pem)
      throws GeneralSecurityException {
    return CertificateFactory.getInstance("X.509")
        .generateCertificates(new ByteArrayInputStream(pem));
  }

  /** An unencrypted PKCS#8 key ("BEGIN PRIVATE KEY", RSA or EC) or PKCS#1 RSA key. */
  static PrivateKey privateKey(byte[] pem) throws GeneralSecurityException {
    String text = new String(pem, StandardCharsets.US_ASCII);
    boolean pkcs1 = text.contains("BEGIN RSA PRIVATE KEY");
    if (!pkcs1 && !text.contains("BEGIN PRIVATE KEY")) {
      throw new GeneralSecurityException("the key is neither a PKCS#8 PEM key (BEGIN PRIVATE"
          + " KEY) nor a PKCS#1 RSA key (BEGIN RSA PRIVATE KEY)");
    }
    byte[] der = Base64.getDecoder().decode(
        text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", ""));
    if (pkcs1) {
      der = rsaPkcs8(der);
    }
    for (String algorithm : new String[] {"RSA", "EC"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // try the next algorithm
      }
    }
    throw new GeneralSecurityException("the key is neither RSA nor EC");
  }

  /** Wraps a PKCS#1 RSA key in PKCS#8: version 0, algorithm rsaEncryption, the key. */
  static byte[] rsaPkcs8(byte[] pkcs1) {
    byte[] version = {0x02, 0x01, 0x00};
    byte[] rsaEncryption = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
        (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
    byte[] key = der(0x04, pkcs1);
    byte[] body = new byte[version.length + rsaEncryption.length + key.length];
    System.arraycopy(version, 0, body, 0, version.length);
    System.arraycopy(rsaEncryption, 0, body, version.length, rsaEncryption.length);
    System.arraycopy(key, 0, body, version.length + rsaEncryption.length, key.length);
    return der(0x30, body);
  }

  /** One DER element: tag, definite length, content. */
  private static byte[] der(int tag, byte[] content) {
    int n = content.length;
    int lengthBytes = n < 0x80 ? 0 : n < 0x100 ? 1 : n < 0x10000 ? 2 : 3;
    byte[] out = new byte[2 + lengthBytes + n];
    out[0] = (byte) tag;
    if (lengthBytes == 0) {
      out[1] = (byte) n;
    } else {
      out[1] = (byte) (0x80 | lengthBytes);
      for (int i = 0; i < lengthBytes; i++) {
        out[2 + i] = (byte) (n >>> (8 * (lengthBytes - 1 - i)));
      }
    }
    System.arraycopy(content, 0, out, 2 + lengthBytes, n);
    return out;
  }
}
