package cloud.gardener.druid.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Compares a command's output with the output its docs show, word by word on each line, with
 * the fields that differ from run to run masked: ages, times, uids, resource versions and the
 * random suffix of generated names. Words, not columns: a table's alignment moves with the
 * width of a masked field (an age of 9s or of 10s).
 */
final class GoldenText {

  private static final List<Mask> MASKS = List.of(
      new Mask("^\\d+[smhd]$", "<age>"),
      new Mask("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)",
          "<time>"),
      new Mask("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uid>"),
      new Mask("(\"resourceVersion\" ?: ?\")\\d+", "$1<rv>"),
      new Mask("(resourceVersion: \")\\d+", "$1<rv>"),
      new Mask("(-(?:snapshot|defragment|replace-member-volume|recover-quorum)-)[a-z0-9]{5}\\b",
          "$1xxxxx"));

  private record Mask(Pattern pattern, String replacement) {
    Mask(String regex, String replacement) {
      this(Pattern.compile(regex), replacement);
    }

    String apply(String word) {
      return pattern.matcher(word).replaceAll(replacement);
    }
  }

  private GoldenText() {
  }

  /** The text's lines as masked words; {@code replacements} first (e.g. a test's namespace). */
  static List<List<String>> words(String text, List<String[]> replacements) {
    String replaced = text;
    for (String[] r : replacements) {
      replaced = replaced.replace(r[0], r[1]);
    }
    List<List<String>> lines = new ArrayList<>();
    for (String line : replaced.strip().split("\n", -1)) {
      List<String> words = new ArrayList<>();
      for (String word : line.strip().split("\\s+")) {
        String masked = word;
        for (Mask m : MASKS) {
          masked = m.apply(masked);
        }
        if (!masked.isEmpty()) {
          words.add(masked);
        }
      }
      lines.add(words);
    }
    return lines;
  }
}
