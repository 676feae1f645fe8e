package cloud.gardener.druid.agent.etcd;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One etcd child process. {@link #stop(Duration)} forwards a SIGTERM and escalates to SIGKILL
 * after the grace period; {@link #exit()} completes with the exit code however it ends.
 */
public final class EtcdProcess implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdProcess.class);

  private final Process process;
  private final CompletableFuture<Integer> exit;
  private final Optional<EtcdOutput> output;
  private final Optional<Thread> copier;

  private EtcdProcess(Process process, Optional<EtcdOutput> output) {
    this.process = process;
    this.output = output;
    this.copier = output.map(o -> new Thread(o, "etcd output"));
    copier.ifPresent(t -> {
      t.setDaemon(true);
      t.start();
    });
    // etcd's last lines are copied (and its verdict read) once it exited
    this.exit = process.onExit().thenApply(p -> {
      awaitOutput();
      return p.exitValue();
    });
  }

  /** The copier has written etcd's last lines: a JVM that stops next must not lose them. */
  private void awaitOutput() {
    copier.ifPresent(EtcdProcess::joinQuietly);
  }

  public static EtcdProcess start(Path etcdBinary, List<String> flags, Redirect output)
      throws IOException {
    return new EtcdProcess(builder(etcdBinary, flags).redirectOutput(output).start(),
        Optional.empty());
  }

  /**
   * etcd with its log copied to {@code output} through the agent, which keeps what etcd's
   * initial corruption check found ({@link #dataInconsistency()}).
   */
  public static EtcdProcess watched(Path etcdBinary, List<String> flags, OutputStream output)
      throws IOException {
    Process process = builder(etcdBinary, flags).start();
    return new EtcdProcess(process, Optional.of(new EtcdOutput(process.getInputStream(),
        output)));
  }

  private static ProcessBuilder builder(Path etcdBinary, List<String> flags) {
    List<String> command = new ArrayList<>();
    command.add(etcdBinary.toString());
    command.addAll(flags);
    LOG.info("starting etcd: {}", String.join(" ", command));
    return new ProcessBuilder(command).redirectErrorStream(true);
  }

  private static void joinQuietly(Thread t) {
    try {
      t.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * etcd refused to start because its initial corruption check found this member's data
   * differs from its peers' (only for {@link #watched} processes).
   */
  public Optional<String> dataInconsistency() {
    return output.flatMap(EtcdOutput::inconsistency);
  }

  public long pid() {
    return process.pid();
  }

  public CompletableFuture<Integer> exit() {
    return exit;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits until etcd accepts connections on {@code clientUrl} (it binds its client port
   * before it serves): a jetcd channel whose first call meets a refused connection backs off
   * for a second, then longer, so a client used before this answers seconds late. Returns
   * false when etcd exited or the deadline passed.
   */
  public boolean awaitListening(URI clientUrl, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    InetSocketAddress address = new InetSocketAddress(clientUrl.getHost(), clientUrl.getPort());
    while (System.nanoTime() < deadline && process.isAlive()) {
      try (Socket socket = new Socket()) {
        socket.connect(address, 1000);
        return true;
      } catch (IOException e) {
        try {
          Thread.sleep(20);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return false;
  }

  /**
   * SIGTERM, then SIGKILL after {@code grace}; returns the exit code. The signal goes through
   * the process handle: {@link Process#destroy()} also closes etcd's output pipe, and etcd
   * logging its graceful stop into a closed pipe dies of SIGPIPE (exit 141) half-way.
   */
  public int stop(Duration grace) {
    process.toHandle().destroy();
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("etcd did not stop within {}; killing it", grace);
        process.destroyForcibly();
        process.waitFor();
      }
      awaitOutput();
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return -1;
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      stop(Duration.ofSeconds(10));
    }
  }
}
