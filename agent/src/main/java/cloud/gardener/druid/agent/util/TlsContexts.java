package cloud.gardener.druid.agent.util;

import cloud.gardener.druid.agent.config.TlsFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A JDK {@link SSLContext} from PEM files: the certificate chain and PKCS#8 key as this
 * side's identity, and the CA (when present) as the only trusted issuer.
 */
public final class TlsContexts {

  private TlsContexts() {
  }

  public static SSLContext of(TlsFiles tls) throws IOException {
    try {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("identity", PemKeys.read(tls.key()), new char[0],
          certificates(tls.cert()).toArray(Certificate[]::new));
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, new char[0]);
      TrustManagerFactory tmf = null;
      if (tls.ca() != null) {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        int i = 0;
        for (Certificate ca : certificates(tls.ca())) {
          trust.setCertificateEntry("ca-" + i++, ca);
        }
        tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
      return context;
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot load the TLS files " + tls + ": " + e.getMessage(), e);
    }
  }

  private static Collection<? extends Certificate> certificates(java.nio.file.Path file)
      throws Exception {
    try (InputStream in = Files.newInputStream(file)) {
      return CertificateFactory.getInstance("X.509").generateCertificates(in);
    }
  }
}
