package cloud.gardener.druid.agent.tls;

import java.nio.file.Path;
import java.util.List;

/**
 * PEM files of one TLS identity and the CA that verifies its peers.
 *
 * @param serverNames when not empty, a server is trusted when its certificate names one of
 *     them, whatever address was dialled ({@link ServerNameTrust}); when empty, the dialled
 *     host is checked as usual
 */
public record TlsFiles(Path ca, Path cert, Path key, List<String> serverNames) {

  public TlsFiles {
    serverNames = List.copyOf(serverNames);
  }

  public TlsFiles(Path ca, Path cert, Path key) {
    this(ca, cert, key, List.of());
  }

  /** These files, trusting a server that names one of {@code names}. */
  public TlsFiles withServerNames(List<String> names) {
    return new TlsFiles(ca, cert, key, names);
  }
}
