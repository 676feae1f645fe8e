package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostsFileTest {

  @Test
  void publishesReplacesAndRemovesItsOwnBlockAndDropsStaleOnes(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("hosts");
    Files.writeString(file, "127.0.0.1 localhost\n"
        + "# BEGIN druid-testenv dead pid=999999999\n127.9.9.9 stale\n# END druid-testenv dead\n");
    HostsFile hosts = new HostsFile(file, "me");

    hosts.publish(List.of("127.10.0.1 a.ns.svc"));
    hosts.publish(List.of("127.10.0.2 b.ns.svc"));

    String text = Files.readString(file);
    assertThat(text).startsWith("127.0.0.1 localhost\n").contains("127.10.0.2 b.ns.svc")
        .doesNotContain("a.ns.svc").doesNotContain("stale");
    hosts.remove();
    assertThat(Files.readString(file)).isEqualTo("127.0.0.1 localhost\n");
  }
}
