package cloud.gardener.druid.agent.config;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --etcd-bin-dir}, where the etcd and etcdutl binaries are: a picocli mixin of every
 * command that starts an etcd ({@code druid agent}, {@code druid agent compact}).
 */
public final class EtcdBinDirOption {

  @Option(names = "--etcd-bin-dir", paramLabel = "DIR",
      defaultValue = "${env:DRUID_ETCD_BIN_DIR:-/usr/local/bin}",
      description = "Directory holding the etcd and etcdutl binaries. Default:"
          + " $DRUID_ETCD_BIN_DIR, else /usr/local/bin.")
  private Path dir;

  public Path dir() {
    return dir;
  }
}
