package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code druid} and {@code kubectl druid} command in a {@code ```bash} block of README.md
 * and docs/*.md parses with the real command line: a renamed option or command breaks the build,
 * not the reader.
 */
class DocsCommandsTest {

  private static final Pattern BLOCK = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);

  record DocCommand(String file, String line, boolean plugin, List<String> args) {
  }

  static Path repoRoot() {
    return Path.of(System.getProperty("druid.repoRoot", "..")).toAbsolutePath().normalize();
  }

  static List<DocCommand> commands() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(repoRoot().resolve("README.md"));
    try (Stream<Path> docs = Files.list(repoRoot().resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    List<DocCommand> commands = new ArrayList<>();
    for (Path file : files) {
      Matcher m = BLOCK.matcher(Files.readString(file));
      while (m.find()) {
        for (String line : m.group(1).replace("\\\n", " ").split("\n")) {
          command(file.getFileName().toString(), line).ifPresent(commands::add);
        }
      }
    }
    return commands;
  }

  static Optional<DocCommand> command(String file, String raw) {
    String line = raw.replaceFirst("\\s+#.*$", "").trim();
    List<String> words = words(line);
    if (words.size() >= 2 && words.get(0).equals("kubectl") && words.get(1).equals("druid")) {
      return Optional.of(new DocCommand(file, line, true, words.subList(2, words.size())));
    }
    if (!words.isEmpty() && (words.get(0).equals("druid") || words.get(0).equals("./druid"))) {
      return Optional.of(new DocCommand(file, line, false, words.subList(1, words.size())));
    }
    return Optional.empty();
  }

  /** Shell words: blanks separate, single and double quotes group. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    char quote = 0;
    boolean inWord = false;
    for (char c : line.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  @Test
  void everyDocumentedCommandParses() throws IOException {
    List<DocCommand> commands = commands();
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
