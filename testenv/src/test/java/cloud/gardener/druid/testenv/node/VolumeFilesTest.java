package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VolumeFilesTest {

  @TempDir
  Path dir;

  @Test
  void writesVersionsBehindDataAndNamesAsLinksIntoIt() throws IOException {
    VolumeFiles.write(dir, files("tls.crt", "one", "sub/ca.crt", "ca1"), Set.of());

    assertThat(Files.readSymbolicLink(dir.resolve("tls.crt")))
        .isEqualTo(Path.of("..data", "tls.crt"));
    assertThat(Files.readSymbolicLink(dir.resolve("sub"))).isEqualTo(Path.of("..data", "sub"));
    assertThat(Files.readSymbolicLink(dir.resolve("..data")).toString()).startsWith("..20");
    assertThat(Files.readString(dir.resolve("tls.crt"))).isEqualTo("one");
    assertThat(Files.readString(dir.resolve("sub/ca.crt"))).isEqualTo("ca1");
  }

  @Test
  void aNewVersionSwapsDataRemovesTheOldVersionAndNamesNoLongerThere() throws IOException {
    VolumeFiles.write(dir, files("tls.crt", "one", "old.key", "k"), Set.of());
    Path first = VolumeFiles.current(dir).toRealPath();

    VolumeFiles.write(dir, files("tls.crt", "two"), Set.of());

    assertThat(Files.readString(dir.resolve("tls.crt"))).isEqualTo("two");
    assertThat(first).doesNotExist();
    assertThat(dir.resolve("old.key")).doesNotExist();
    try (Stream<Path> entries = Files.list(dir)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .hasSize(3).contains("..data", "tls.crt");
    }
  }

  @Test
  void aFileOpenedBeforeTheSwapKeepsItsVersion() throws IOException {
    VolumeFiles.write(dir, files("tls.crt", "one"), Set.of());
    try (var reader = Files.newBufferedReader(dir.resolve("tls.crt"))) {
      VolumeFiles.write(dir, files("tls.crt", "two"), Set.of());
      assertThat(reader.readLine()).isEqualTo("one");
    }
    assertThat(Files.readString(dir.resolve("tls.crt"))).isEqualTo("two");
  }

  @Test
  void aPinnedVersionStays() throws IOException {
    VolumeFiles.write(dir, files("tls.crt", "one"), Set.of());
    Path first = VolumeFiles.current(dir).toRealPath();

    VolumeFiles.write(dir, files("tls.crt", "two"), Set.of(first));

    assertThat(Files.readString(first.resolve("tls.crt"))).isEqualTo("one");
  }

  @Test
  void holdsComparesTheCurrentVersion() {
    VolumeFiles.write(dir, files("a", "1", "b/c", "2"), Set.of());

    assertThat(VolumeFiles.holds(dir, files("a", "1", "b/c", "2"))).isTrue();
    assertThat(VolumeFiles.holds(dir, files("a", "1"))).isFalse();
    assertThat(VolumeFiles.holds(dir, files("a", "1", "b/c", "3"))).isFalse();
  }

  @Test
  void refusesPathsLeavingTheVolume() {
    assertThatThrownBy(() -> VolumeFiles.write(dir, files("../x", "1"), Set.of()))
        .hasMessageContaining("../x");
    assertThatThrownBy(() -> VolumeFiles.write(dir, files("/etc/x", "1"), Set.of()))
        .hasMessageContaining("/etc/x");
    assertThatThrownBy(() -> VolumeFiles.write(dir, files("..data", "1"), Set.of()))
        .hasMessageContaining("..data");
  }

  private static Map<String, byte[]> files(String... pathsAndContents) {
    Map<String, byte[]> files = new LinkedHashMap<>();
    for (int i = 0; i < pathsAndContents.length; i += 2) {
      files.put(pathsAndContents[i], pathsAndContents[i + 1].getBytes(StandardCharsets.UTF_8));
    }
    return files;
  }
}
