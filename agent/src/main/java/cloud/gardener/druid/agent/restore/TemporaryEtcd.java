package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.etcd.EtcdBinaryVersion;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.EtcdProcess;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.tls.EtcdCredentials;
import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.agent.util.ProcessCpu;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * An etcd on a restored data directory, reachable only on 127.0.0.1 and without fsync (the
 * directory is thrown away if anything fails, and synced by the caller once it is done), used
 * to replay deltas in large transactions, and by {@code druid agent compact} to compact and
 * defragment a restored backup.
 */
public final class TemporaryEtcd implements AutoCloseable {

  private static final String HOST = "127.0.0.1";
  /** Above the applier's batch limits, so a batch is never refused for its size. */
  static final int MAX_TXN_OPS = 2 * Restorer.BATCH_KEYS;
  static final long MAX_REQUEST_BYTES = 4 * Restorer.BATCH_BYTES;
  /** Revisions a compaction deletes per backend transaction. */
  static final int COMPACTION_BATCH_REVISIONS = 20_000;

  private final EtcdProcess process;
  private final MemberClient client;
  private boolean closed;

  private TemporaryEtcd(EtcdProcess process, MemberClient client) {
    this.process = process;
    this.client = client;
  }

  /**
   * @param credentials the etcd user of the Etcd: a database restored from its backups keeps
   *     etcd's authentication on (the gateway then serves the authentication requests)
   */
  public static TemporaryEtcd start(Path etcdBinary, String name, Path dataDir, Path log,
      Optional<EtcdCredentials> credentials) throws IOException, RestoreException {
    URI clientUrl = URI.create("http://" + HOST + ":" + LoopbackPorts.on(HOST));
    URI peerUrl = URI.create("http://" + HOST + ":" + LoopbackPorts.on(HOST));
    List<String> flags = new java.util.ArrayList<>(List.of(
        "--name=" + name,
        "--data-dir=" + dataDir,
        "--listen-client-urls=" + clientUrl,
        "--advertise-client-urls=" + clientUrl,
        "--listen-peer-urls=" + peerUrl,
        "--initial-advertise-peer-urls=" + peerUrl,
        "--initial-cluster=" + name + "=" + peerUrl,
        "--unsafe-no-fsync=true",
        "--snapshot-count=1000000",
        "--heartbeat-interval=10",
        "--election-timeout=100",
        "--max-txn-ops=" + MAX_TXN_OPS,
        "--max-request-bytes=" + MAX_REQUEST_BYTES,
        "--quota-backend-bytes=" + 8L * 1024 * 1024 * 1024,
        "--enable-grpc-gateway=" + credentials.isPresent(),
        // the compaction after a replay deletes in batches of 1,000 revisions with a 10 ms
        // pause after each: half a second per 50,000 replayed revisions spent sleeping
        EtcdBinaryVersion.flag(etcdBinary, "compaction-batch-limit") + "="
            + COMPACTION_BATCH_REVISIONS,
        EtcdBinaryVersion.flag(etcdBinary, "compaction-sleep-interval") + "=1ms",
        // etcd prints every large transaction as text when it takes longer than these:
        // a tenth of its CPU time during a replay, and of no use here
        EtcdBinaryVersion.flag(etcdBinary, "warning-apply-duration") + "=1h",
        "--log-level=error"));
    if (EtcdBinaryVersion.minor(etcdBinary) >= 6) {
      flags.add("--warning-unary-request-duration=1h"); // 3.5 has no such flag
    }
    EtcdProcess process = EtcdProcess.start(etcdBinary, flags, Redirect.appendTo(log.toFile()));
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    // its channel is built while etcd opens its database; it connects on its first call
    MemberClient client = new MemberClient(clientUrl, Optional.empty(), credentials)
        .warmUp();
    TemporaryEtcd etcd = new TemporaryEtcd(process, client);
    awaitListening(etcd, clientUrl, deadline, log);
    etcd.awaitReady(log, deadline);
    return etcd;
  }

  private static void awaitListening(TemporaryEtcd etcd, URI clientUrl, long deadline,
      Path log) throws RestoreException {
    EtcdProcess process = etcd.process;
    if (process.awaitListening(clientUrl,
        Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
      return;
    }
    String state = process.isAlive() ? "did not listen on " + clientUrl
        : "exited with code " + process.exit().join();
    etcd.close();
    throw new RestoreException("the temporary etcd for replaying deltas " + state + "; see "
        + log);
  }

  private void awaitReady(Path log, long deadline) throws RestoreException {
    EtcdException last = null;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        close();
        throw new RestoreException("the temporary etcd for replaying deltas exited with code "
            + process.exit().join() + "; see " + log);
      }
      try {
        client.revision();
        return;
      } catch (EtcdException e) {
        if (e.getMessage().contains("user name is empty")) {
          close();
          throw new RestoreException("the restored database has etcd authentication on and"
              + " no etcd user was given (spec.etcd.authSecretRef; --etcd-auth-dir): " + e, e);
        }
        if (e.getMessage().contains("authentication failed")) {
          close();
          throw new RestoreException("the restored database's etcd users do not accept the"
              + " given credentials: etcd's users and passwords are those of the full snapshot"
              + " restored (delta snapshots do not carry them), so a password changed after"
              + " it is not in the backups; give the password valid then (or take a full"
              + " snapshot first, where the cluster still runs): " + e, e);
        }
        last = e;
        pause(10);
      }
    }
    close();
    throw new RestoreException("the temporary etcd did not become ready: " + last, last);
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The CPU time the etcd process has used so far, in milliseconds (-1 if unknown). */
  long cpuMillis() {
    return ProcessHandle.of(process.pid()).map(ProcessCpu::millis).orElse(-1L);
  }

  public MemberClient client() {
    return client;
  }

  /** Commits puts and deletes in one transaction; answers the revision after it. */
  TransactionSender.TxnSink sink() {
    KV kv = client.client().getKVClient();
    return events -> {
      Op[] ops = new Op[events.size()];
      for (int i = 0; i < ops.length; i++) {
        DeltaEvent e = events.get(i);
        ByteSequence key = ByteSequence.from(e.key());
        ops[i] = e.isDelete() ? Op.delete(key, DeleteOption.DEFAULT)
            : Op.put(key, ByteSequence.from(e.value()), PutOption.DEFAULT);
      }
      return kv.txn().Then(ops).commit().thenApply(r -> r.getHeader().getRevision());
    };
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    client.close();
    process.stop(Duration.ofSeconds(30));
  }
}
