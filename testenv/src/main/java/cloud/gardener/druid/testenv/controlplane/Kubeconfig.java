package cloud.gardener.druid.testenv.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/** Writes a kubeconfig with one cluster, one bearer-token user and one current context. */
public final class Kubeconfig {

  private Kubeconfig() {
  }

  public static Path write(Path file, String server, String caPem, String token) {
    String ca = Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8));
    String text = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: druid-local
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: admin
          user:
            token: %s
        contexts:
        - name: druid-local
          context:
            cluster: druid-local
            user: admin
            namespace: default
        current-context: druid-local
        """.formatted(server, ca, token);
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      return Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
