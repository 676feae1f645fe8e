package cloud.gardener.druid.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class KubeTargetTest {

  static final String KUBECONFIG = """
      apiVersion: v1
      kind: Config
      current-context: team-a
      clusters:
      - name: one
        cluster:
          server: https://127.0.0.1:6443
      - name: two
        cluster:
          server: https://127.0.0.2:6443
      users:
      - name: admin
        user:
          token: not-a-secret
      contexts:
      - name: team-a
        context: {cluster: one, user: admin, namespace: team-a}
      - name: plain
        context: {cluster: two, user: admin}
      """;

  @TempDir
  Path dir;

  private KubeTarget parse(String... args) throws Exception {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(file, KUBECONFIG);
    KubeTarget target = new KubeTarget();
    String[] all = new String[args.length + 2];
    all[0] = "--kubeconfig";
    all[1] = file.toString();
    System.arraycopy(args, 0, all, 2, args.length);
    new CommandLine(target).parseArgs(all);
    return target;
  }

  @Test
  void namespaceComesFromTheCurrentContext() throws Exception {
    KubeTarget target = parse();
    assertThat(target.namespace()).isEqualTo("team-a");
    assertThat(target.config().getMasterUrl()).startsWith("https://127.0.0.1:6443");
  }

  @Test
  void dashNWins() throws Exception {
    assertThat(parse("-n", "other").namespace()).isEqualTo("other");
  }

  @Test
  void aContextWithoutNamespaceMeansDefault() throws Exception {
    KubeTarget target = parse("--context", "plain");
    assertThat(target.namespace()).isEqualTo("default");
    assertThat(target.config().getMasterUrl()).startsWith("https://127.0.0.2:6443");
  }

  @Test
  void anUnknownContextIsNotFound() throws Exception {
    KubeTarget target = parse("--context", "nope");
    assertThatThrownBy(target::namespace).isInstanceOf(UserError.class)
        .hasMessageContaining("context nope is not in")
        .satisfies(e -> assertThat(((UserError) e).exitCode()).isEqualTo(ExitCodes.NOT_FOUND));
  }

  @Test
  void aMissingKubeconfigIsNotFound() {
    KubeTarget target = new KubeTarget();
    new CommandLine(target).parseArgs("--kubeconfig", dir.resolve("missing").toString());
    assertThatThrownBy(target::config).isInstanceOf(UserError.class)
        .hasMessageContaining("cannot read kubeconfig");
  }

  /** Without --kubeconfig, the files of $KUBECONFIG (here its system property) are used. */
  @Test
  void withoutKubeconfigTheDefaultFilesAreUsed() throws Exception {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(file, KUBECONFIG);
    System.setProperty("kubeconfig", file.toString());
    try {
      KubeTarget target = new KubeTarget();
      new CommandLine(target).parseArgs("--context", "plain");
      assertThat(target.namespace()).isEqualTo("default");
      assertThat(target.config().getMasterUrl()).startsWith("https://127.0.0.2:6443");
      KubeTarget unknown = new KubeTarget();
      new CommandLine(unknown).parseArgs("--context", "nope");
      assertThatThrownBy(unknown::namespace).isInstanceOf(UserError.class)
          .hasMessageContaining("context nope is not in");
    } finally {
      System.clearProperty("kubeconfig");
    }
  }
}
