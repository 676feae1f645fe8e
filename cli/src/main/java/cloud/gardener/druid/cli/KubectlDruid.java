package cloud.gardener.druid.cli;

import cloud.gardener.druid.cli.ctl.CtlCommand;
import cloud.gardener.druid.cli.shared.ErrorHandler;
import cloud.gardener.druid.cli.shared.LogFormat;
import cloud.gardener.druid.cli.shared.Terminal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * {@code kubectl druid ...}: the kubectl plugin's entry point, {@code druid ctl} under the name
 * kubectl users type. The {@code kubectl-druid} launcher ({@code druid plugin install}) runs it;
 * {@code kubectl_complete-druid} runs it with {@value #COMPLETE} for kubectl's completion of
 * plugins.
 */
public final class KubectlDruid {

  static final String NAME = "kubectl druid";
  /** kubectl (1.26+) asks a plugin's completer for the words that may follow. */
  static final String COMPLETE = "__complete";
  /** Cobra's directive "do not complete file names", the last line of the answer. */
  static final String NO_FILE_COMPLETION = ":4";

  private KubectlDruid() {
  }

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals(COMPLETE)) {
      completions(Arrays.copyOfRange(args, 1, args.length)).forEach(System.out::println);
      System.out.println(NO_FILE_COMPLETION);
      return;
    }
    LogFormat.configureFrom(args);
    System.exit(Terminal.execute(commandLine(), args));
  }

  /** The configured command line, also used by tests. */
  public static CommandLine commandLine() {
    return new CommandLine(new CtlCommand())
        .setCommandName(NAME)
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(new ErrorHandler());
  }

  /**
   * The words that may stand where the last of {@code words} (the one being typed, maybe empty)
   * stands, sorted; picocli's completer gives the rest of each word, kubectl wants whole words.
   */
  static List<String> completions(String[] words) {
    String[] args = words.length == 0 ? new String[] {""} : words;
    String typed = args[args.length - 1];
    List<CharSequence> rests = new ArrayList<>();
    AutoComplete.complete(commandLine().getCommandSpec(), args, args.length - 1, typed.length(),
        typed.length(), rests);
    return rests.stream().map(rest -> typed + rest).sorted().toList();
  }
}
