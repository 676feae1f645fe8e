package cloud.gardener.druid.agent.testing;

import cloud.gardener.druid.agent.etcd.EtcdProcess;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/** A single etcd member on 127.0.0.1 for tests that need etcd without an agent. */
public final class LocalEtcd implements AutoCloseable {

  private final EtcdProcess process;
  private final MemberClient client;
  private final URI clientUrl;

  public LocalEtcd(String name, Path dataDir, Path log) throws Exception {
    this(EtcdBinaries.dir(), name, dataDir, log);
  }

  /** An etcd of the binaries in {@code binDir} (e.g. another minor's build). */
  public LocalEtcd(Path binDir, String name, Path dataDir, Path log) throws Exception {
    clientUrl = URI.create("http://127.0.0.1:" + LoopbackPorts.on("127.0.0.1"));
    URI peerUrl = URI.create("http://127.0.0.1:" + LoopbackPorts.on("127.0.0.1"));
    process = EtcdProcess.start(binDir.resolve("etcd"), List.of(
        "--name=" + name, "--data-dir=" + dataDir,
        "--listen-client-urls=" + clientUrl, "--advertise-client-urls=" + clientUrl,
        "--listen-peer-urls=" + peerUrl, "--initial-advertise-peer-urls=" + peerUrl,
        "--initial-cluster=" + name + "=" + peerUrl,
        "--quota-backend-bytes=" + 8L * 1024 * 1024 * 1024),
        ProcessBuilder.Redirect.appendTo(log.toFile()));
    client = new MemberClient(clientUrl, Optional.empty());
    Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> client.revision() > 0);
  }

  public MemberClient client() {
    return client;
  }

  public URI clientUrl() {
    return clientUrl;
  }

  /** Writes {@code count} keys "{prefix}{i}" = "value-{i}", pipelined. */
  public void putKeys(String prefix, int from, int count) throws Exception {
    KV kv = client.client().getKVClient();
    List<CompletableFuture<?>> batch = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      batch.add(kv.put(bytes(prefix + i), bytes("value-" + i)));
      if (batch.size() == 500) {
        CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        batch.clear();
      }
    }
    CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
  }

  public static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  public static long countPrefix(MemberClient client, String prefix) throws Exception {
    GetResponse r = client.client().getKVClient().get(bytes(prefix),
        GetOption.builder().isPrefix(true).withCountOnly(true).build()).get(30, TimeUnit.SECONDS);
    return r.getCount();
  }

  /** Every key in the store, whatever its name. */
  public static long countAll(MemberClient client) throws Exception {
    ByteSequence all = ByteSequence.from(new byte[] {0});
    return client.client().getKVClient().get(all,
        GetOption.builder().withRange(all).withCountOnly(true).build())
        .get(30, TimeUnit.SECONDS).getCount();
  }

  /** The whole key space, key to value (UTF-8). */
  public static SortedMap<String, String> dump(MemberClient client) throws Exception {
    ByteSequence all = ByteSequence.from(new byte[] {0});
    GetResponse r = client.client().getKVClient().get(all,
        GetOption.builder().withRange(all).build()).get(60, TimeUnit.SECONDS);
    SortedMap<String, String> content = new TreeMap<>();
    r.getKvs().forEach(kv -> content.put(kv.getKey().toString(StandardCharsets.UTF_8),
        kv.getValue().toString(StandardCharsets.UTF_8)));
    return content;
  }

  public static Optional<String> value(MemberClient client, String key) throws Exception {
    GetResponse r = client.client().getKVClient().get(bytes(key)).get(30, TimeUnit.SECONDS);
    return r.getKvs().stream().findFirst()
        .map(kv -> kv.getValue().toString(StandardCharsets.UTF_8));
  }

  public void kill() {
    process.stop(Duration.ZERO);
  }

  @Override
  public void close() {
    client.close();
    process.stop(Duration.ofSeconds(10));
  }
}
