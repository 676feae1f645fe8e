package cloud.gardener.druid.agent.testing;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Configurations for members on loopback addresses. */
public final class TestConfigs {

  private TestConfigs() {
  }

  public static MemberConfig member(String name, String host, int clientPort, int peerPort,
      Map<String, URI> cluster, Path dataDir) {
    return new MemberConfig(name, "etcd-test", "default", host, host, clientPort, peerPort,
        cluster, "default-etcd-test", dataDir, Optional.empty(), Optional.empty());
  }

  public static MemberConfig single(String name, String host, int clientPort, int peerPort,
      Path dataDir) {
    return member(name, host, clientPort, peerPort,
        Map.of(name, URI.create("http://" + host + ":" + peerPort)), dataDir);
  }

  public static EtcdTuning tuning() {
    return EtcdTuning.defaults(EtcdBinaries.dir());
  }
}
