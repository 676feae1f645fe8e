package cloud.gardener.druid.testenv.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The audit itself: it sees loopback sockets and flags a socket on a non-loopback address. */
class ConnectionAuditIT {

  @Test
  void flagsAListenerOnTheWildcardAddressButNotOneOnLoopback() throws Exception {
    ProcessLedger ledger = ProcessLedger.inMemory();
    Path dir = Files.createTempDirectory("audit");
    String listen = "import socket,time\n"
        + "a=socket.socket(); a.bind(('127.0.0.1',0)); a.listen()\n"
        + "b=socket.socket(); b.bind(('0.0.0.0',0)); b.listen()\n"
        + "print('listening', flush=True); time.sleep(60)\n";
    try (ManagedProcess process = ManagedProcess.start("listener", List.of("python3", "-c", listen),
        Map.of("PATH", System.getenv("PATH")), dir, dir.resolve("listener.log"), ledger);
        ConnectionAudit audit = new ConnectionAudit(ledger)) {
      await().atMost(Duration.ofSeconds(10)).until(() ->
          Files.readString(dir.resolve("listener.log")).contains("listening"));

      audit.sample();

      assertThat(audit.socketsSeen()).isEqualTo(2);
      assertThat(audit.violations()).singleElement()
          .satisfies(v -> assertThat(v.local()).startsWith("0.0.0.0:"))
          .satisfies(v -> assertThat(v.pid()).isEqualTo(process.pid()));
    }
  }
}
