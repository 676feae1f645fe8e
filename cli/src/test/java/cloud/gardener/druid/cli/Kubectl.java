package cloud.gardener.druid.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs {@code kubectl druid} commands in-process against a cluster, in a test namespace. */
record Kubectl(Path kubeconfig, String namespace) {

  static final Duration WAIT = Duration.ofMinutes(2);

  record Run(int code, String out, String err) {
  }

  /** A command running in the background; its output so far is readable. */
  record Running(StringWriter out, StringWriter err, CompletableFuture<Integer> code) {
    Run join() {
      int c = code.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
      return new Run(c, out.toString(), err.toString());
    }
  }

  /** Runs the command with {@code --kubeconfig} and {@code -n} added unless given. */
  Run run(String... args) {
    return start(args).join();
  }

  Running start(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var cli = KubectlDruid.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of(args));
    if (!all.contains("--kubeconfig")) {
      all.addAll(List.of("--kubeconfig", kubeconfig.toString()));
    }
    if (!all.contains("-n") && !all.contains("-A")) {
      all.addAll(List.of("-n", namespace));
    }
    return new Running(out, err,
        CompletableFuture.supplyAsync(() -> cli.execute(all.toArray(String[]::new))));
  }
}
