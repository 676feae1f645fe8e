package cloud.gardener.druid.agent.testing;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A process that starts a full snapshot upload, writes more than one part of any store's
 * chunked upload, says "UPLOADING" and then hangs until it is killed. Arguments:
 * {@link #args(StoreConfig)} of the store.
 */
public final class InterruptedUploadMain {

  private InterruptedUploadMain() {
  }

  /** The arguments naming a store: provider, container, prefix, endpoint or -, secret dir or -. */
  public static List<String> args(StoreConfig config) {
    return List.of(config.provider().name(), config.container(), config.prefix(),
        config.endpointOverride().map(URI::toString).orElse("-"),
        config.secretDir().map(Path::toString).orElse("-"));
  }

  /** Runs the upload in a new JVM and kills it (SIGKILL) once it is in the middle. */
  public static void killMidUpload(StoreConfig config) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), InterruptedUploadMain.class.getName()));
    command.addAll(args(config));
    Process uploader = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(uploader.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      StringBuilder log = new StringBuilder();
      while ((line = out.readLine()) != null && !line.equals("UPLOADING")) {
        log.append(line).append('\n');
      }
      if (line == null) {
        throw new AssertionError("the uploader ended before the middle of its upload:\n" + log);
      }
    } finally {
      uploader.destroyForcibly();
      uploader.waitFor(30, TimeUnit.SECONDS);
    }
  }

  public static void main(String[] args) throws Exception {
    StoreConfig config = new StoreConfig(StoreConfig.Provider.valueOf(args[0]), args[1],
        args[2], args[3].equals("-") ? Optional.empty() : Optional.of(URI.create(args[3])),
        args[4].equals("-") ? Optional.empty() : Optional.of(Paths.get(args[4])));
    SnapshotStore store = SnapshotStores.open(config);
    Snapshot snapshot = Snapshot.full(0, 99, Instant.now(), Snapshot.Compression.GZIP, false);
    store.put(snapshot, out -> {
      byte[] chunk = new byte[1 << 20];
      for (int i = 0; i < 12; i++) {
        out.write(chunk);
      }
      out.flush();
      System.out.println("UPLOADING");
      System.out.flush();
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }
}
