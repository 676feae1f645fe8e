package cloud.gardener.druid.agent.tls;

import cloud.gardener.druid.agent.tls.TlsFiles;
import cloud.gardener.druid.api.tls.PemKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A JDK {@link SSLContext} from PEM files: the certificate chain and key (PKCS#8, PKCS#1 RSA or
 * SEC1 EC, read by {@link PemKeys}) as this side's identity, and the CA bundle (when present)
 * as the only trusted issuers.
 */
public final class TlsContexts {

  /** The key and trust managers of one version of the files. */
  record Managers(X509ExtendedKeyManager keys, X509ExtendedTrustManager trust) {
  }

  private TlsContexts() {
  }

  public static SSLContext of(TlsFiles tls) throws IOException {
    Managers m = managers(tls);
    return context(m.keys(), m.trust());
  }

  static SSLContext context(X509ExtendedKeyManager keys, X509ExtendedTrustManager trust)
      throws IOException {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new javax.net.ssl.KeyManager[] {keys},
          trust == null ? null : new javax.net.ssl.TrustManager[] {trust}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot create a TLS context: " + e.getMessage(), e);
    }
  }

  static Managers managers(TlsFiles tls) throws IOException {
    try {
      PrivateKey key = PemKeys.privateKey(Files.readAllBytes(tls.key()), tls.key().toString());
      List<X509Certificate> chain = certificates(tls.cert());
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("identity", key, new char[0], chain.toArray(X509Certificate[]::new));
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, new char[0]);
      X509ExtendedTrustManager trust = null;
      if (tls.ca() != null) {
        KeyStore cas = KeyStore.getInstance("PKCS12");
        cas.load(null, null);
        int i = 0;
        for (X509Certificate ca : certificates(tls.ca())) {
          cas.setCertificateEntry("ca-" + i++, ca);
        }
        TrustManagerFactory tmf =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(cas);
        trust = (X509ExtendedTrustManager) tmf.getTrustManagers()[0];
        if (!tls.serverNames().isEmpty()) {
          trust = new ServerNameTrust(trust, tls.serverNames());
        }
      }
      return new Managers((X509ExtendedKeyManager) kmf.getKeyManagers()[0], trust);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot load the TLS files " + tls + ": " + e.getMessage(), e);
    }
  }

  /** The trust manager of {@code tls}: its CA bundle, and its server names when given. */
  public static X509ExtendedTrustManager trust(TlsFiles tls) throws IOException {
    return managers(tls).trust();
  }

  /** The certificates of a PEM file (a chain or a CA bundle). */
  public static List<X509Certificate> certificates(Path file)
      throws IOException, GeneralSecurityException {
    return PemKeys.certificates(Files.readAllBytes(file), file.toString());
  }

  /** The private key of a PEM file. */
  public static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
    return PemKeys.privateKey(Files.readAllBytes(file), file.toString());
  }
}
