package cloud.gardener.druid.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.cli.KubectlDruid;
import cloud.gardener.druid.cli.shared.ExitCodes;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Exit codes and dry runs of kubectl druid against a stand-in API server (no cluster). */
class CtlExitCodesTest {

  static final String ETCD_PATH = "/apis/druid.gardener.cloud/v1alpha1/namespaces/team-a/etcds/";

  @TempDir
  Path dir;

  FakeApiServer api;
  Path kubeconfig;
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  @BeforeEach
  void start() throws Exception {
    api = new FakeApiServer();
    kubeconfig = api.kubeconfig(dir);
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private int run(String... args) {
    CommandLine cli = KubectlDruid.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--kubeconfig";
    all[args.length + 1] = kubeconfig.toString();
    return cli.execute(all);
  }

  private void serveEtcd(String name, int replicas, Map<String, String> annotations) {
    Etcd etcd = EtcdPlansTest.etcd(name, replicas);
    etcd.getMetadata().setAnnotations(annotations);
    api.serve(ETCD_PATH + name, Serialization.asJson(etcd));
  }

  @ParameterizedTest
  @ValueSource(strings = {"status", "confirm-volumes", "snapshot", "defragment", "hibernate",
      "wake", "reconcile", "suspend", "resume", "backups", "logs"})
  void aMissingEtcdIsNotFoundInTheContextsNamespace(String command) {
    assertThat(run(command, "nope")).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(err.toString()).contains("etcd team-a/nope not found");
    assertThat(api.writes()).isEmpty();
  }

  @Test
  void anUnreachableApiServerIsAnError() {
    api.close();
    assertThat(run("status", "etcd-main")).isEqualTo(ExitCodes.ERROR);
  }

  @Test
  void usageErrorsAreTwo() {
    assertThat(run("status", "etcd-main", "-A")).isEqualTo(ExitCodes.USAGE);
    assertThat(run("status", "-o", "xml")).isEqualTo(ExitCodes.USAGE);
    assertThat(run("wait", "rollout", "etcd-main", "--timeout", "10")).isEqualTo(ExitCodes.USAGE);
    assertThat(run("backups", "etcd-main", "--local-store-layout", "per-tenant"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("per-namespace, shared");
  }

  @Test
  void aRefusalChangesNothingAndIsSix() {
    serveEtcd("etcd-main", 3, null);
    assertThat(run("resume", "etcd-main")).isEqualTo(ExitCodes.REFUSED);
    assertThat(err.toString()).contains("are not suspended");
    assertThat(run("wake", "etcd-main")).isEqualTo(ExitCodes.REFUSED);
    assertThat(run("confirm-volumes", "etcd-main")).isEqualTo(ExitCodes.REFUSED);
    assertThat(api.writes()).isEmpty();
  }

  @Test
  void aMemberThatIsNotOneIsNotFound() {
    serveEtcd("etcd-main", 3, null);
    assertThat(run("replace-member-volume", "etcd-main", "etcd-main-3")).isEqualTo(
        ExitCodes.NOT_FOUND);
    assertThat(err.toString()).contains("etcd-main-3 is not a member of etcd team-a/etcd-main");
    assertThat(api.writes()).isEmpty();
  }

  @Test
  void dryRunSaysWhatWouldHappenAndWritesNothing() {
    serveEtcd("etcd-main", 3, null);
    assertThat(run("hibernate", "etcd-main", "--dry-run")).isZero();
    assertThat(out.toString()).contains(
        "will set spec.replicas of etcd team-a/etcd-main from 3 to 0",
        "the volumes (PVCs) are kept", "(dry run: nothing changed)");
    assertThat(run("suspend", "etcd-main", "--dry-run=client")).isZero();
    assertThat(out.toString()).contains(Annotations.SUSPEND_SPEC_RECONCILE + "=true");
    assertThat(run("defragment", "etcd-main", "--dry-run")).isZero();
    assertThat(out.toString()).contains("will create EtcdOpsTask team-a/etcd-main-defragment-",
        "followers first, the leader last");
    assertThat(run("recover-quorum", "etcd-main", "--dry-run")).isEqualTo(ExitCodes.REFUSED);
    assertThat(api.writes()).isEmpty();
  }
}
