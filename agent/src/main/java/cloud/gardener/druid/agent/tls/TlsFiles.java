package cloud.gardener.druid.agent.tls;

import java.nio.file.Path;

/** PEM files of one TLS identity and the CA that verifies its peers. */
public record TlsFiles(Path ca, Path cert, Path key) {
}
