package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerLogTest {

  static final Duration WAIT = Duration.ofSeconds(10);

  static ContainerLog written(Path dir, long maxBytes, String... runs) {
    ContainerLog log = new ContainerLog("uid-1", dir.resolve("c"), dir.resolve("all.log"),
        maxBytes, 3);
    for (int run = 0; run < runs.length; run++) {
      Path fifo = log.startRun(run, "test-log");
      try {
        Files.write(fifo, runs[run].getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      await().atMost(WAIT).until(() -> !log.isWriting());
    }
    return log;
  }

  static String serve(ContainerLog log, String query, boolean previous) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LogQuery q = LogQuery.parse(query, Instant.now());
    new LogStream(log, q, out).serve((previous ? log.previous() : log.current()).orElseThrow());
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void eachRunHasItsFileInTheCriFormatAndOnlyThePreviousRunIsKept(@TempDir Path dir)
      throws Exception {
    ContainerLog log = written(dir, 1 << 20, "a1\na2\n", "b1\n", "c1\nc2\nc3");

    assertThat(serve(log, null, false)).isEqualTo("c1\nc2\nc3");
    assertThat(serve(log, "previous=true", true)).isEqualTo("b1\n");
    try (Stream<Path> files = Files.list(dir.resolve("c"))) { // no FIFO left either
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
          "1.log", "2.log");
    }
    assertThat(Files.readAllLines(dir.resolve("c/2.log")).get(0))
        .matches("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z stdout F c1");
    assertThat(Files.readString(dir.resolve("c/2.log"))).endsWith(" stdout P c3\n");
    assertThat(Files.readString(dir.resolve("all.log"))).isEqualTo("a1\na2\nb1\nc1\nc2\nc3");
  }

  @Test
  void tailSinceTimestampsAndLimitSelectAsTheKubeletDoes(@TempDir Path dir) throws Exception {
    ContainerLog log = written(dir, 1 << 20, "one\ntwo\nthree\n");

    assertThat(serve(log, "tailLines=2", false)).isEqualTo("two\nthree\n");
    assertThat(serve(log, "tailLines=0", false)).isEmpty();
    assertThat(serve(log, "limitBytes=6", false)).isEqualTo("one\ntw");
    assertThat(serve(log, "sinceSeconds=60", false)).isEqualTo("one\ntwo\nthree\n");
    String stamped = serve(log, "timestamps=true&tailLines=1", false);
    assertThat(stamped).matches("\\S+Z three\n");
    Instant last = Instant.parse(stamped.substring(0, stamped.indexOf(' ')));
    assertThat(serve(log, "sinceTime=" + last.plusNanos(1), false)).isEmpty();
    assertThat(serve(log, "sinceTime=" + last, false)).isEqualTo("three\n");
  }

  @Test
  void rotatesAtTheSizeLimitKeepingAtMostMaxFilesAndServesTheCurrentFile(@TempDir Path dir)
      throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      lines.append("line ").append(i).append('\n');
    }
    ContainerLog log = written(dir, 1024, lines.toString());

    List<Path> rotated = ContainerLog.rotatedOf(dir.resolve("c/0.log"));
    assertThat(rotated).hasSize(2);
    assertThat(Files.size(dir.resolve("c/0.log"))).isLessThan(1024);
    assertThat(serve(log, "tailLines=1", false)).isEqualTo("line 199\n");
    assertThat(Files.readString(dir.resolve("all.log"))).isEqualTo(lines.toString());
  }

  @Test
  void followStreamsNewLinesAcrossRotationsUntilTheRunEnds(@TempDir Path dir) throws Exception {
    ContainerLog log = new ContainerLog("uid-1", dir.resolve("c"), dir.resolve("all.log"), 200,
        3);
    OutputStream container = Files.newOutputStream(log.startRun(0, "test-log"));
    container.write("before\n".getBytes(StandardCharsets.UTF_8));
    container.flush();
    await().atMost(WAIT).until(() -> Files.exists(dir.resolve("c/0.log"))
        && Files.size(dir.resolve("c/0.log")) > 0);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CompletableFuture<Void> following = CompletableFuture.runAsync(() -> {
      try {
        new LogStream(log, LogQuery.parse("follow=true", Instant.now()), out)
            .serve(log.current().orElseThrow());
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    await().atMost(WAIT).until(() -> out.toString(StandardCharsets.UTF_8).equals("before\n"));
    StringBuilder expected = new StringBuilder("before\n");
    // a line at a time: a follower sees each rotation (one every ~4 lines here), as a
    // kubelet's does; rotations faster than it looks would skip the files in between
    for (int i = 0; i < 12; i++) {
      String line = "after " + i + "\n";
      expected.append(line);
      container.write(line.getBytes(StandardCharsets.UTF_8));
      container.flush();
      await().atMost(WAIT).until(() -> out.size() == expected.length());
    }
    assertThat(following).isNotDone();
    container.close();

    following.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(expected.toString());
    assertThat(ContainerLog.rotatedOf(dir.resolve("c/0.log"))).isNotEmpty();
  }
}
