package cloud.gardener.druid.agent.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TerminationMessageTest {

  @TempDir
  Path dir;

  @Test
  void writesTheMessageIntoTheFileTheKubeletMountedCutToItsLimit() throws Exception {
    Path file = Files.createFile(dir.resolve("termination-log"));
    TerminationMessage.write(file, "copied 2 snapshot(s)");
    assertThat(Files.readString(file)).isEqualTo("copied 2 snapshot(s)");

    TerminationMessage.write(file, "x".repeat(5000));
    assertThat(Files.size(file)).isEqualTo(TerminationMessage.MAX_BYTES);
  }

  @Test
  void writesNothingWhereNoFileWasMounted() {
    TerminationMessage.write(dir.resolve("absent"), "copied");
    assertThat(dir.resolve("absent")).doesNotExist();
  }
}
