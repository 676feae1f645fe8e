package cloud.gardener.druid.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The examples of a doc's section that show a command's output: a {@code ```bash} block of one
 * command (with {@code # exit N} when it does not exit 0) followed by the {@code ```text}
 * block of what the terminal shows, stdout then stderr.
 */
final class DocExamples {

  static final String SECTION = "## What the commands print";
  private static final Pattern EXAMPLE = Pattern.compile(
      "```bash\\n([^\\n]+)\\n```\\s*\\n```text\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern EXIT = Pattern.compile("#\\s*exit (\\d+)");

  record Example(String line, List<String> words, int exit, String output) {
  }

  private DocExamples() {
  }

  static List<Example> of(Path doc) throws IOException {
    String text = Files.readString(doc);
    int start = text.indexOf(SECTION);
    if (start < 0) {
      throw new IllegalStateException(doc + " has no section '" + SECTION + "'");
    }
    int end = text.indexOf("\n## ", start + SECTION.length());
    Matcher m = EXAMPLE.matcher(text.substring(start, end < 0 ? text.length() : end));
    List<Example> examples = new ArrayList<>();
    while (m.find()) {
      String line = m.group(1).trim();
      Matcher exit = EXIT.matcher(line);
      String command = line.replaceFirst("\\s+#.*$", "");
      examples.add(new Example(command, DocsCommandsTest.words(command),
          exit.find() ? Integer.parseInt(exit.group(1)) : 0, m.group(2)));
    }
    return examples;
  }
}
