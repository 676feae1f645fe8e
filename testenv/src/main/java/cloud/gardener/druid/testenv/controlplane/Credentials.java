package cloud.gardener.druid.testenv.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The key material of a control plane, written to {@code dir}: the API server's self-signed
 * serving certificate (for 127.0.0.1 and localhost; also the CA clients trust), the
 * service-account signing key pair, an admin bearer token in {@code system:masters} and the
 * certificates between the API server and the node's kubelet API ({@link Kubelet}).
 */
public record Credentials(Path servingCert, Path servingKey, Path serviceAccountKey,
    Path serviceAccountPublicKey, Path tokenFile, String adminToken, Kubelet kubelet) {

  /**
   * The kubelet API's self-signed serving certificate for 127.0.0.1 (the API server trusts
   * exactly it) and the API server's self-signed client certificate (the kubelet trusts
   * exactly it), each with its PKCS#8 key.
   */
  public record Kubelet(Path servingCert, Path servingKey, Path clientCert, Path clientKey) {
  }

  public static Credentials create(Path dir) {
    try {
      Files.createDirectories(dir);
      Path cert = dir.resolve("apiserver.crt");
      Path key = dir.resolve("apiserver.key");
      selfSignedCertificate(cert, key, "/CN=kube-apiserver",
          "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,"
              + "DNS:kubernetes.default,DNS:kubernetes.default.svc,"
              + "DNS:kubernetes.default.svc.cluster.local");
      Kubelet kubelet = new Kubelet(dir.resolve("kubelet.crt"), dir.resolve("kubelet.key"),
          dir.resolve("apiserver-kubelet-client.crt"), dir.resolve("apiserver-kubelet-client.key"));
      selfSignedCertificate(kubelet.servingCert(), kubelet.servingKey(),
          "/CN=system:node:kubelet", "subjectAltName=IP:127.0.0.1",
          "extendedKeyUsage=serverAuth");
      selfSignedCertificate(kubelet.clientCert(), kubelet.clientKey(),
          "/O=system:masters/CN=kube-apiserver-kubelet-client", "extendedKeyUsage=clientAuth");
      KeyPair serviceAccount = rsaKeyPair();
      Path saKey = write(dir.resolve("sa.key"), pem("PRIVATE KEY",
          serviceAccount.getPrivate().getEncoded()));
      Path saPub = write(dir.resolve("sa.pub"), pem("PUBLIC KEY",
          serviceAccount.getPublic().getEncoded()));
      byte[] random = new byte[24];
      new SecureRandom().nextBytes(random);
      String token = HexFormat.of().formatHex(random);
      Path tokens = write(dir.resolve("tokens.csv"),
          token + ",admin,admin-uid,system:masters\n");
      return new Credentials(cert, key, saKey, saPub, tokens, token, kubelet);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The serving certificate as PEM text, for kubeconfigs. */
  public String servingCertPem() {
    try {
      return Files.readString(servingCert);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // The JDK has no public API to issue certificates; openssl is on every machine we run on.
  private static void selfSignedCertificate(Path cert, Path key, String subject,
      String... extensions) throws IOException {
    List<String> command = new ArrayList<>(List.of("openssl", "req", "-x509",
        "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "3650",
        "-subj", subject));
    for (String extension : extensions) {
      command.addAll(List.of("-addext", extension));
    }
    command.addAll(List.of("-keyout", key.toString(), "-out", cert.toString()));
    Process openssl = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!openssl.waitFor(30, TimeUnit.SECONDS) || openssl.exitValue() != 0) {
        throw new IllegalStateException("openssl could not create the certificate " + subject + ": "
            + output.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static KeyPair rsaKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  private static Path write(Path file, String text) throws IOException {
    return Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
