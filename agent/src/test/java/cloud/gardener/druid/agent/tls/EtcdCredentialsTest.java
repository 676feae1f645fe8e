package cloud.gardener.druid.agent.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EtcdCredentialsTest {

  @TempDir
  Path dir;

  @Test
  void readsTheFilesAnewEachTimeWithoutTrailingLineBreaks() throws Exception {
    EtcdCredentials credentials = EtcdCredentials.in(dir);
    Files.writeString(dir.resolve("username"), "root\n");
    Files.writeString(dir.resolve("password"), "s3cret pw\r\n");
    assertThat(credentials.read()).isEqualTo(new EtcdCredentials.Values("root", "s3cret pw"));

    Files.writeString(dir.resolve("password"), "rotated");
    assertThat(credentials.read().password()).isEqualTo("rotated");
  }

  @Test
  void neitherTheDescriptionNorTheValuesTextShowAPassword() throws Exception {
    EtcdCredentials credentials = EtcdCredentials.in(dir);
    Files.writeString(dir.resolve("username"), "root");
    Files.writeString(dir.resolve("password"), "s3cret");
    assertThat(credentials.read().toString()).contains("root").doesNotContain("s3cret");
    assertThat(credentials.describe()).isEqualTo("the user in " + dir.resolve("username")
        + " with the password in " + dir.resolve("password"));
  }

  @Test
  void aMissingOrEmptyFileIsNamed() throws Exception {
    EtcdCredentials credentials = EtcdCredentials.in(dir);
    Files.writeString(dir.resolve("username"), "root");
    assertThatThrownBy(credentials::read).hasMessageContaining(dir.resolve("password")
        .toString());
    Files.writeString(dir.resolve("password"), "\n");
    assertThatThrownBy(credentials::read).hasMessage(dir.resolve("password") + " is empty");
  }
}
