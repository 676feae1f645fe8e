package cloud.gardener.druid.agent.init;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterJoinerTest {

  @TempDir
  Path dir;

  /** Accepts connections and never answers; counts the connections open across servers. */
  private static final class SilentPeer implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> sockets = new ArrayList<>();

    SilentPeer(String host, int port, AtomicInteger open, AtomicInteger maxOpen)
        throws IOException {
      server = new ServerSocket();
      server.bind(new InetSocketAddress(host, port));
      Thread acceptor = new Thread(() -> {
        while (!server.isClosed()) {
          try {
            Socket socket = server.accept();
            synchronized (sockets) {
              sockets.add(socket);
            }
            maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
            Thread reader = new Thread(() -> drainUntilClosed(socket, open));
            reader.setDaemon(true);
            reader.start();
          } catch (IOException e) {
            return;
          }
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private static void drainUntilClosed(Socket socket, AtomicInteger open) {
      try (InputStream in = socket.getInputStream()) {
        byte[] buffer = new byte[4096];
        while (in.read(buffer) >= 0) {
          // ignore the HTTP/2 preface, answer nothing
        }
      } catch (IOException e) {
        // closed
      } finally {
        open.decrementAndGet();
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
      synchronized (sockets) {
        for (Socket s : sockets) {
          s.close();
        }
      }
    }
  }

  private static MemberConfig member(int clientPort, Map<String, String> hosts, Path dataDir) {
    Map<String, URI> cluster = new LinkedHashMap<>();
    hosts.forEach((name, host) -> cluster.put(name, URI.create("http://" + host + ":2380")));
    return TestConfigs.member("m0", hosts.get("m0"), clientPort, 2380, cluster, dataDir);
  }

  @Test
  void unreachableMembersAreAskedAtOnceNotOneTimeoutAfterTheOther() throws Exception {
    int port = LoopbackPorts.on("127.0.0.1");
    AtomicInteger open = new AtomicInteger();
    AtomicInteger maxOpen = new AtomicInteger();
    try (SilentPeer m1 = new SilentPeer("127.0.0.2", port, open, maxOpen);
        SilentPeer m2 = new SilentPeer("127.0.0.3", port, open, maxOpen)) {
      MemberConfig self = member(port,
          Map.of("m0", "127.0.0.4", "m1", "127.0.0.2", "m2", "127.0.0.3"), dir);

      Optional<MemberClient> found = new ClusterJoiner(self).findRunningCluster();

      assertThat(found).isEmpty();
      assertThat(maxOpen.get()).as("both silent members were waited for at the same time")
          .isEqualTo(2);
    }
  }

  @Test
  void theMemberThatAnswersIsFoundWhileAnotherIsDown() throws Exception {
    try (LocalEtcd etcd = new LocalEtcd("m1", dir.resolve("m1"), dir.resolve("m1.log"))) {
      int port = etcd.clientUrl().getPort();
      Map<String, String> hosts = new LinkedHashMap<>();
      hosts.put("m0", "127.0.0.4");
      hosts.put("m2", "127.0.0.3");
      hosts.put("m1", "127.0.0.1");
      MemberConfig self = member(port, hosts, dir.resolve("m0"));

      Optional<MemberClient> found = new ClusterJoiner(self).findRunningCluster();

      assertThat(found).isPresent();
      try (MemberClient client = found.get()) {
        assertThat(client.endpoint()).isEqualTo(etcd.clientUrl());
        assertThat(client.members()).hasSize(1);
      }
    }
  }

  /**
   * A member with additional peer URLs joins under its own name in --initial-cluster, also
   * when etcd lists an additional URL first (it sorts them): etcd refuses to start a member
   * whose name is not there.
   */
  @Test
  void aJoiningMemberWithAdditionalPeerUrlsIsNamedInItsInitialCluster() throws Exception {
    try (LocalEtcd etcd = new LocalEtcd("m1", dir.resolve("m1"), dir.resolve("m1.log"))) {
      Map<String, String> hosts = new LinkedHashMap<>();
      hosts.put("m0", "127.0.0.4");
      hosts.put("m1", "127.0.0.1");
      URI additional = URI.create("http://127.0.0.14:2380");
      MemberConfig self = member(etcd.clientUrl().getPort(), hosts, dir.resolve("m0"))
          .withAdditionalPeerUrls(List.of(additional));
      try (MemberClient cluster = new MemberClient(etcd.clientUrl(), Optional.empty())) {
        StartPlan plan = new ClusterJoiner(self).join(cluster,
            new cloud.gardener.druid.agent.metrics.BackupRestoreMetrics());

        assertThat(cluster.members()).anySatisfy(m -> assertThat(m.getPeerURIs().get(0))
            .as("etcd lists the additional URL first").isEqualTo(additional));
        assertThat(plan.cluster()).containsOnlyKeys("m0", "m1");
        assertThat(plan.cluster().get("m0")).containsExactlyInAnyOrder(additional,
            URI.create("http://127.0.0.4:2380"));
      }
    }
  }
}
