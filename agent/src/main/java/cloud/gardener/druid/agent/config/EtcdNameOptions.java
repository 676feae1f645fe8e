package cloud.gardener.druid.agent.config;

import cloud.gardener.druid.agent.tls.EtcdCredentials;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --etcd-name} and {@code --namespace}, the Etcd a Job's command works for: a picocli
 * mixin of {@code druid agent compact} and {@code druid agent verify-backups}, which both run
 * a temporary etcd on loopback under a name derived from it ({@link #scratchMember}).
 */
public final class EtcdNameOptions {

  @Option(names = "--etcd-name", paramLabel = "ETCD", required = true,
      description = "The Etcd whose backups these are: a store whose identity marker names "
          + "another Etcd is refused.")
  private String name;

  @Option(names = "--namespace", paramLabel = "NAMESPACE",
      defaultValue = "${env:POD_NAMESPACE:-default}",
      description = "Namespace of the Etcd. Default: $POD_NAMESPACE, else default.")
  private String namespace;

  @Option(names = "--etcd-auth-dir", paramLabel = "DIR", description = "Directory with the"
      + " files username and password of the Etcd's etcd user: a database restored from its"
      + " backups keeps etcd's authentication on. Default: no etcd user.")
  private Path etcdAuthDir;

  public String name() {
    return name;
  }

  public String namespace() {
    return namespace;
  }

  /** Refuses an empty {@code --etcd-name}. */
  public void validate() {
    if (name.isBlank()) {
      throw new IllegalArgumentException("--etcd-name must not be empty");
    }
  }

  /**
   * A temporary etcd's identity: member {@code <etcd>-<member>}, cluster token
   * {@code <namespace>-<etcd>-<token>}, loopback only, never part of the Etcd's cluster.
   */
  public MemberConfig scratchMember(String member, String token, Path dataDir) {
    String memberName = name + "-" + member;
    return new MemberConfig(memberName, name, namespace, "127.0.0.1", "127.0.0.1", 2379, 2380,
        Map.of(memberName, URI.create("http://127.0.0.1:2380")),
        namespace + "-" + name + "-" + token, dataDir, Optional.empty(), Optional.empty())
        .withEtcdCredentials(etcdCredentials());
  }

  /** The etcd user of {@code --etcd-auth-dir}, also for a live cluster the command calls. */
  public Optional<EtcdCredentials> etcdCredentials() {
    return Optional.ofNullable(etcdAuthDir).map(EtcdCredentials::in);
  }
}
