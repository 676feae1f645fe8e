package cloud.gardener.druid.agent.util;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short-lived tool (etcdutl) to completion and returns its output. */
public final class ProcessRunner {

  private static final int KEEP = 16 * 1024;

  private ProcessRunner() {
  }

  /** The tool's combined output; throws with the output's tail when it fails or hangs. */
  public static String run(List<String> command, Duration timeout) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      Tail tail = new Tail(process.getInputStream());
      Thread reader = new Thread(tail, "output-" + command.get(0));
      reader.setDaemon(true);
      reader.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IOException(String.join(" ", command) + " did not finish within " + timeout);
      }
      reader.join(5000);
      if (process.exitValue() != 0) {
        throw new IOException(command.get(0) + " " + command.get(1) + " failed (exit "
            + process.exitValue() + "): " + tail.text().strip());
      }
      return tail.text();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + command.get(0), e);
    } finally {
      process.destroyForcibly();
    }
  }

  private static final class Tail implements Runnable {
    private final InputStream in;
    private final StringBuilder text = new StringBuilder();

    Tail(InputStream in) {
      this.in = in;
    }

    @Override
    public void run() {
      byte[] buf = new byte[8192];
      try {
        for (int n; (n = in.read(buf)) > 0; ) {
          synchronized (text) {
            text.append(new String(buf, 0, n, StandardCharsets.UTF_8));
            if (text.length() > KEEP) {
              text.delete(0, text.length() - KEEP);
            }
          }
        }
      } catch (IOException ignored) {
        // the process ended
      }
    }

    String text() {
      synchronized (text) {
        return text.toString();
      }
    }
  }
}
