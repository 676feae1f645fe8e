package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.controlplane.Credentials;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The kubelet API's TLS: it serves with its certificate and accepts only clients presenting
 * the API server's kubelet client certificate (a kubelet's {@code --client-ca-file}).
 */
final class KubeletTls {

  private static final char[] NO_PASSWORD = new char[0];

  private KubeletTls() {
  }

  static SSLContext context(Credentials.Kubelet credentials) {
    try {
      KeyStore identity = KeyStore.getInstance("PKCS12");
      identity.load(null, null);
      identity.setKeyEntry("kubelet", privateKey(credentials.servingKey()), NO_PASSWORD,
          new Certificate[] {certificate(credentials.servingCert())});
      KeyManagerFactory keys = KeyManagerFactory.getInstance(
          KeyManagerFactory.getDefaultAlgorithm());
      keys.init(identity, NO_PASSWORD);
      KeyStore trusted = KeyStore.getInstance("PKCS12");
      trusted.load(null, null);
      trusted.setCertificateEntry("kube-apiserver", certificate(credentials.clientCert()));
      TrustManagerFactory trust = TrustManagerFactory.getInstance(
          TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
      return tls;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up the kubelet API's TLS", e);
    }
  }

  private static Certificate certificate(Path pem) throws IOException, GeneralSecurityException {
    try (InputStream in = Files.newInputStream(pem)) {
      return CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  /** An EC key in PKCS#8 PEM, as {@code openssl req -nodes} writes it. */
  private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
    String base64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "")
        .replaceAll("\\s", "");
    return KeyFactory.getInstance("EC")
        .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
  }
}
