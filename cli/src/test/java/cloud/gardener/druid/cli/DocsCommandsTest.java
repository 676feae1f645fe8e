package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.testenv.docs.DocCommands;
import cloud.gardener.druid.testenv.docs.DocCommands.DocCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code druid} and {@code kubectl druid} command in a {@code ```bash} block of README.md
 * and docs/*.md parses with the real command line: a renamed option or command breaks the build,
 * not the reader. The developer commands ({@code local}, {@code bench}) are not in the product:
 * devtools' DocsCommandsTest parses them with the developer jar's command line.
 */
class DocsCommandsTest {

  private static final Set<String> DEVELOPER_COMMANDS = Set.of("local", "bench");

  static Path repoRoot() {
    return DocCommands.repoRoot();
  }

  static List<String> words(String line) {
    return DocCommands.words(line);
  }

  @Test
  void everyDocumentedCommandParses() throws IOException {
    List<DocCommand> commands = DocCommands.commands().stream()
        .filter(c -> c.plugin() || c.args().isEmpty()
            || !DEVELOPER_COMMANDS.contains(c.args().get(0)))
        .toList();
    List<String> broken = new ArrayList<>();
    for (DocCommand c : commands) {
      CommandLine cli = c.plugin() ? KubectlDruid.commandLine() : Druid.commandLine();
      try {
        cli.parseArgs(c.args().toArray(String[]::new));
      } catch (CommandLine.ParameterException e) {
        broken.add(c.file() + ": " + c.line() + " -> " + e.getMessage());
      }
    }
    assertThat(broken).isEmpty();
    assertThat(commands).as("commands found in the docs").hasSizeGreaterThan(40);
  }

  @Test
  void theDocsIndexListsEveryDoc() throws IOException {
    String index = Files.readString(repoRoot().resolve("docs/README.md"));
    try (Stream<Path> docs = Files.list(repoRoot().resolve("docs"))) {
      assertThat(docs.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".md") && !n.equals("README.md")))
          .allSatisfy(name -> assertThat(index).contains("(" + name + ")"));
    }
  }

  @Test
  void wordsHonourQuotes() {
    assertThat(words("kubectl druid status -l 'app=main, tier' -o \"wide\""))
        .containsExactly("kubectl", "druid", "status", "-l", "app=main, tier", "-o", "wide");
  }
}
