package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.tls.PemKeys;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * PEM certificates and keys from Secrets (any key kind {@link PemKeys} reads), turned into the
 * {@link SSLContext} of the operator's calls to one Etcd's agents.
 */
final class TlsMaterial {

  /** PEM bytes and where they come from (for errors; never the bytes themselves). */
  record Pem(byte[] bytes, String source) {
  }

  private TlsMaterial() {
  }

  /** The decoded value of {@code key} in the secret. */
  static Pem data(Secret secret, String key) {
    String source = "secret " + secret.getMetadata().getNamespace() + "/"
        + secret.getMetadata().getName() + " key " + key;
    String value = secret.getData() == null ? null : secret.getData().get(key);
    if (value != null) {
      return new Pem(Base64.getDecoder().decode(value), source);
    }
    String plain = secret.getStringData() == null ? null : secret.getStringData().get(key);
    if (plain != null) {
      return new Pem(plain.getBytes(StandardCharsets.UTF_8), source);
    }
    throw new AgentClient.AgentException("secret " + secret.getMetadata().getName()
        + " has no key " + key);
  }

  /**
   * Trusts server certificates the CA bundle issued for the dialled address or a host of
   * {@code peerDomain}; presents the client certificate and key.
   */
  static SSLContext context(Pem ca, Pem cert, Pem key, String peerDomain) {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      int i = 0;
      for (X509Certificate c : PemKeys.certificates(ca.bytes(), ca.source())) {
        trust.setCertificateEntry("ca-" + i++, c);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      X509TrustManager pkix = (X509TrustManager) tmf.getTrustManagers()[0];
      KeyStore identity = KeyStore.getInstance("PKCS12");
      identity.load(null, null);
      identity.setKeyEntry("identity", PemKeys.privateKey(key.bytes(), key.source()),
          new char[0], PemKeys.certificates(cert.bytes(), cert.source())
              .toArray(X509Certificate[]::new));
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(identity, new char[0]);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(),
          new TrustManager[] {new AgentServerTrust(pkix, peerDomain)}, null);
      return context;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new AgentClient.AgentException("cannot build the agent TLS context: "
          + e.getMessage(), e);
    }
  }
}
