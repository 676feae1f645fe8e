package cloud.gardener.druid.agent.util;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/** Reads an unencrypted PKCS#8 PEM private key ("BEGIN PRIVATE KEY"), RSA or EC. */
public final class PemKeys {

  private PemKeys() {
  }

  public static PrivateKey read(Path file) throws IOException, GeneralSecurityException {
    String pem = Files.readString(file, StandardCharsets.US_ASCII);
    if (!pem.contains("BEGIN PRIVATE KEY")) {
      throw new IOException(file + " is not a PKCS#8 PEM key (BEGIN PRIVATE KEY)");
    }
    String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64));
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // try the next algorithm
      }
    }
    throw new IOException(file + " holds a key of an unsupported algorithm");
  }
}
