package cloud.gardener.druid.testenv.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code druid} and {@code kubectl druid} commands in the {@code ```bash} blocks of
 * README.md and docs/*.md, for the tests that parse them with the real command lines (the
 * product's in cli, the developer jar's in devtools).
 */
public final class DocCommands {

  private static final Pattern BLOCK = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);

  /** A command line of a doc: {@code kubectl druid ...} ({@code plugin}) or {@code druid ...}. */
  public record DocCommand(String file, String line, boolean plugin, List<String> args) {
  }

  /** The checkout: {@code -Ddruid.repoRoot}, else the parent of the module directory. */
  public static Path repoRoot() {
    return Path.of(System.getProperty("druid.repoRoot", "..")).toAbsolutePath().normalize();
  }

  /** Every command line of README.md and docs/*.md, in order. */
  public static List<DocCommand> commands() throws IOException {
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

  /** The command of a shell line, if it runs druid or kubectl druid. */
  public static Optional<DocCommand> command(String file, String raw) {
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
  public static List<String> words(String line) {
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

  private DocCommands() {
  }
}
