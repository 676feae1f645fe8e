package cloud.gardener.druid.operator.it;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A CA and certificates signed by it, made by openssl (as the agent's TLS test does), and the
 * Secrets an Etcd refers to: the CA under {@code ca.crt}, an identity under {@code tls.crt}
 * and {@code tls.key}.
 */
public final class TestCertificates {

  private final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  /** A new CA in {@code dir}. */
  public static TestCertificates ca(Path dir) throws Exception {
    Files.createDirectories(dir);
    TestCertificates certs = new TestCertificates(dir);
    certs.openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        "-subj", "/CN=druid-test-ca", "-keyout", "ca.key", "-out", "ca.crt");
    return certs;
  }

  /**
   * A certificate named {@code name} for server and client use, valid for {@code sans}
   * (openssl subjectAltName syntax, e.g. {@code DNS:*.e-peer.ns.svc}, {@code IP:127.0.0.1}).
   */
  public void issue(String name, List<String> sans) throws Exception {
    Files.writeString(dir.resolve(name + ".cnf"), "subjectAltName=" + String.join(",", sans)
        + "\nextendedKeyUsage=serverAuth,clientAuth\n");
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + name,
        "-keyout", name + ".key", "-out", name + ".csr");
    openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "1", "-extfile", name + ".cnf", "-out", name + ".crt");
  }

  public Path file(String fileName) {
    return dir.resolve(fileName);
  }

  /** A Secret with the CA certificate under {@code ca.crt}. */
  public Secret caSecret(String secretName) throws IOException {
    return secret(secretName, "ca.crt", "ca.crt");
  }

  /** A Secret with the certificate {@code name} under {@code tls.crt} and {@code tls.key}. */
  public Secret identitySecret(String secretName, String name) throws IOException {
    Secret s = secret(secretName, "tls.crt", name + ".crt");
    s.getData().put("tls.key", base64(name + ".key"));
    return s;
  }

  private Secret secret(String secretName, String key, String fileName) throws IOException {
    return new SecretBuilder().withNewMetadata().withName(secretName).endMetadata()
        .addToData(key, base64(fileName)).build();
  }

  private String base64(String fileName) throws IOException {
    return Base64.getEncoder().encodeToString(Files.readAllBytes(dir.resolve(fileName)));
  }

  private void openssl(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add("openssl");
    for (String arg : args) {
      command.add(arg.matches("[\\w.-]+\\.(key|crt|csr|cnf)") ? dir.resolve(arg).toString() : arg);
    }
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(1, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
  }
}
