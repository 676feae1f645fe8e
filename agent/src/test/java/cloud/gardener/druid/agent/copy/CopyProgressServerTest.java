package cloud.gardener.druid.agent.copy;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.CopyProgress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CopyProgressServerTest {

  @Test
  void servesTheCopysCurrentProgressAndNothingBeforeThereIsOne() throws Exception {
    AtomicReference<Optional<String>> now = new AtomicReference<>(Optional.empty());
    try (CopyProgressServer server = CopyProgressServer.start(
        new InetSocketAddress("127.0.0.1", 0), now::get)) {
      URI uri = URI.create("http://127.0.0.1:" + server.port().orElseThrow() + CopyProgress.PATH);
      HttpClient http = HttpClient.newHttpClient();
      assertThat(http.send(HttpRequest.newBuilder(uri).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(204);
      now.set(Optional.of(CopyProgress.copied(3, 10, 12L << 20)));
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).isEqualTo("3 of 10 snapshots copied (12.0 MiB)");
      assertThat(http.send(HttpRequest.newBuilder(uri.resolve("/other")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }
  }

  @Test
  void aTakenPortLeavesTheCopyWithoutTheServer() {
    try (CopyProgressServer first = CopyProgressServer.start(
        new InetSocketAddress("127.0.0.1", 0), Optional::empty);
        CopyProgressServer second = CopyProgressServer.start(
            new InetSocketAddress("127.0.0.1", first.port().orElseThrow()), Optional::empty)) {
      assertThat(second.port()).isEmpty();
    }
  }
}
