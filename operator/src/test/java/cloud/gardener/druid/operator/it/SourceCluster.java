package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.api.v1alpha1.BootstrapExistingMember;
import cloud.gardener.druid.api.v1alpha1.BootstrapWithExistingCluster;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.cluster.Member;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * A plain etcd cluster the operator does not manage: {@code size} etcd processes started by the
 * test on their own loopback addresses ({@code 127.9.<k>.<i>}, outside the node simulators'
 * {@code 127.10+} subnets), as a user's cluster that an Etcd joins. Optionally with peer TLS
 * from {@code peerTls} (a directory with ca.crt, peer.crt and peer.key).
 */
public final class SourceCluster implements AutoCloseable {

  private final List<String> names = new ArrayList<>();
  private final List<String> hosts = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();
  private final Optional<TestCertificates> peerTls;
  private final String peerScheme;

  private SourceCluster(int size, int subnet, Optional<TestCertificates> peerTls) {
    this.peerTls = peerTls;
    this.peerScheme = peerTls.isPresent() ? "https" : "http";
    for (int i = 0; i < size; i++) {
      names.add("src-" + i);
      hosts.add("127.9." + subnet + "." + (i + 1));
    }
  }

  /** The loopback addresses the members of a cluster on {@code subnet} will use. */
  public static List<String> addresses(int size, int subnet) {
    return IntStream.range(0, size).mapToObj(i -> "127.9." + subnet + "." + (i + 1)).toList();
  }

  /** A subnet no other test JVM uses at the same time (by process id). */
  public static int freeSubnet(int offset) {
    return (int) ((ProcessHandle.current().pid() * 3 + offset) % 250) + 1;
  }

  /** Starts the cluster at etcd {@code minor} (e.g. "3.6") and waits until it answers. */
  public static SourceCluster start(int size, String minor, Path workDir, int subnet,
      Optional<TestCertificates> peerTls) throws Exception {
    SourceCluster c = new SourceCluster(size, subnet, peerTls);
    Path etcd = EtcdBuilds.directory(minor).resolve("etcd");
    String initial = String.join(",", IntStream.range(0, size)
        .mapToObj(i -> c.names.get(i) + "=" + c.peerUrl(i)).toList());
    for (int i = 0; i < size; i++) {
      Path dir = workDir.resolve(c.names.get(i));
      Files.createDirectories(dir);
      List<String> cmd = new ArrayList<>(List.of(etcd.toString(), "--name", c.names.get(i),
          "--data-dir", dir.resolve("data").toString(),
          "--listen-client-urls", c.clientUrl(i), "--advertise-client-urls", c.clientUrl(i),
          "--listen-peer-urls", c.peerUrl(i), "--initial-advertise-peer-urls", c.peerUrl(i),
          "--initial-cluster", initial, "--initial-cluster-state", "new",
          "--initial-cluster-token", "source-" + subnet, "--heartbeat-interval", "100",
          "--election-timeout", "1000"));
      if (peerTls.isPresent()) {
        TestCertificates t = peerTls.get();
        cmd.addAll(List.of("--peer-cert-file", t.file("peer.crt").toString(),
            "--peer-key-file", t.file("peer.key").toString(),
            "--peer-trusted-ca-file", t.file("ca.crt").toString(), "--peer-client-cert-auth"));
      }
      c.processes.add(new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(dir.resolve("etcd.log").toFile()).start());
    }
    c.awaitHealthy(Duration.ofSeconds(60));
    return c;
  }

  public String name(int i) {
    return names.get(i);
  }

  public String clientUrl(int i) {
    return "http://" + hosts.get(i) + ":2379";
  }

  public String peerUrl(int i) {
    return peerScheme + "://" + hosts.get(i) + ":2380";
  }

  public List<String> clientUrls() {
    return IntStream.range(0, names.size()).mapToObj(this::clientUrl).toList();
  }

  /** The Etcd spec field that joins this cluster. */
  public BootstrapWithExistingCluster joinSpec() {
    BootstrapWithExistingCluster join = new BootstrapWithExistingCluster();
    List<BootstrapExistingMember> members = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      BootstrapExistingMember m = new BootstrapExistingMember();
      m.setName(names.get(i));
      m.setPeerUrls(List.of(peerUrl(i)));
      members.add(m);
    }
    join.setMembers(members);
    join.setClientEndpoints(clientUrls());
    return join;
  }

  /** The member list as the source's own endpoints answer it. */
  public List<Member> members() throws Exception {
    try (Client c = EtcdClients.connect(clientUrls())) {
      return c.getClusterClient().listMember().get(10, TimeUnit.SECONDS).getMembers();
    }
  }

  public long clusterId() throws Exception {
    try (Client c = EtcdClients.connect(clientUrls())) {
      return c.getClusterClient().listMember().get(10, TimeUnit.SECONDS).getHeader()
          .getClusterId();
    }
  }

  /** Whether member {@code i}'s process still runs (etcd stops a member removed from the cluster). */
  public boolean running(int i) {
    return processes.get(i).isAlive();
  }

  private void awaitHealthy(Duration atMost) throws Exception {
    long deadline = System.nanoTime() + atMost.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try (Client c = EtcdClients.connect(clientUrls())) {
        EtcdClients.put(c.getKVClient(), "/source/started", "yes");
        return;
      } catch (Exception e) {
        last = e;
        Thread.sleep(500);
      }
    }
    throw new IOException("the source cluster did not answer within " + atMost, last);
  }

  @Override
  public void close() {
    for (Process p : processes) {
      p.destroy();
    }
    for (Process p : processes) {
      try {
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
