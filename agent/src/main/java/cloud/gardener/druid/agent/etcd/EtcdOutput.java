package cloud.gardener.druid.agent.etcd;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Copies etcd's log to the agent's output line by line and keeps etcd's verdict of its
 * initial corruption check: etcd says it only in its log ("found data inconsistency with
 * peers", the same words in 3.5 to 3.7) and exits, and the agent must name the member.
 */
final class EtcdOutput implements Runnable {

  static final String INCONSISTENT = "found data inconsistency with peers";
  private static final String DIFFERENT_HASH = "found different hash values from remote peer";
  private static final Pattern REVISION = Pattern.compile("\"local-member-revision\":(\\d+)");
  // the peer's id in etcd's line is 0 (its hash answer carries none), its endpoint is right
  private static final Pattern PEER = Pattern.compile("\"remote-peer-endpoints\":\\[\"([^\"]+)\"");

  private final InputStream in;
  private final OutputStream out;
  private volatile String differentHash;
  private volatile String inconsistency;

  EtcdOutput(InputStream in, OutputStream out) {
    this.in = in;
    this.out = out;
  }

  @Override
  public void run() {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(in,
        StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        watch(line);
        write(line);
      }
    } catch (IOException e) {
      // etcd's output closed: nothing left to copy
    }
  }

  void watch(String line) {
    if (differentHash == null && line.contains(DIFFERENT_HASH)) {
      Matcher revision = REVISION.matcher(line);
      Matcher peer = PEER.matcher(line);
      differentHash = (revision.find() ? " at revision " + revision.group(1) : "")
          + (peer.find() ? ", the peer at " + peer.group(1) + " has another" : "");
    }
    if (line.contains(INCONSISTENT)) {
      inconsistency = "etcd's initial corruption check found this member's data differs from"
          + " its peers' (its key-value hash" + (differentHash == null ? "" : differentHash)
          + "); etcd refused to start and serves no client";
    }
  }

  private void write(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      synchronized (out) {
        out.write(bytes);
        out.flush();
      }
    } catch (IOException e) {
      // the agent's own output is gone; keep reading so that etcd never blocks on its log
    }
  }

  /** What etcd's initial corruption check found, once it said so. */
  Optional<String> inconsistency() {
    return Optional.ofNullable(inconsistency);
  }
}
