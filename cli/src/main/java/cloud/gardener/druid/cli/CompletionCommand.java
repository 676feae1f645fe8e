package cloud.gardener.druid.cli;

import cloud.gardener.druid.cli.shared.ExitCodes;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code druid completion bash|zsh}: the shell completion script, made by picocli. */
@Command(name = "completion", mixinStandardHelpOptions = true,
    description = {"Print the completion script of druid (and of kubectl-druid) for bash or"
        + " zsh. Load it with:",
        "  source <(druid completion bash)",
        "zsh loads the same script through bashcompinit, which the script enables."})
final class CompletionCommand implements Callable<Integer> {

  enum Shell { bash, zsh }

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "bash|zsh", description = "The shell.")
  Shell shell;

  @Override
  public Integer call() {
    CommandLine root = spec.root().commandLine();
    spec.commandLine().getOut().print(AutoComplete.bash(root.getCommandName(), root));
    spec.commandLine().getOut().print(AutoComplete.bash("kubectl-druid",
        KubectlDruid.commandLine()));
    return ExitCodes.OK;
  }
}
