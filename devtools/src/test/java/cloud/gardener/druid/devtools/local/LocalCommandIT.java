package cloud.gardener.druid.devtools.local;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.devtools.DruidDev;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code druid local up --detach}, {@code status} and {@code down} on a real control plane. */
class LocalCommandIT {

  @Test
  void upDetachedRunsASampleEtcdToCompletionAndDownStopsEveryProcessItStarted(@TempDir Path dir)
      throws Exception {
    try {
      Result up = run("local", "up", "--dir", dir.toString(), "--detach");
      assertThat(up.exit()).as(up.output()).isZero();
      assertThat(up.output()).contains(dir.resolve("kubeconfig").toString());

      assertThat(up.output()).contains(
          "sample Etcd default/etcd-main (3 members, etcd 3.6, rollout complete");
      try (KubernetesClient client = LocalCluster.clientFor(dir.resolve("kubeconfig"), null)) {
        assertThat(client.nodes().list().getItems()).hasSize(1);
        var etcd = client.resources(cloud.gardener.druid.api.v1alpha1.Etcd.class)
            .inNamespace("default").withName("etcd-main").get();
        assertThat(cloud.gardener.druid.api.RolloutCompletion.isComplete(etcd)).isTrue();
        assertThat(etcd.getStatus().getMembers()).hasSize(3);
      }
      assertReportHoldsTheAgentsAnswers(dir);
      Result status = run("local", "status", "--dir", dir.toString());
      assertThat(status.exit()).isZero();
      assertThat(status.output()).contains("kube-apiserver", "running");
      List<ProcessLedger.Entry> started = ProcessLedger.read(dir.resolve("processes"));
      assertThat(started).extracting(ProcessLedger.Entry::name)
          .contains("etcd", "kube-apiserver", "kube-controller-manager");

      assertThat(run("local", "down", "--dir", dir.toString()).exit()).isZero();

      assertThat(started).noneMatch(ProcessLedger.Entry::isSameLiveProcess);
      assertThat(run("local", "status", "--dir", dir.toString()).exit()).isEqualTo(3);
    } finally {
      run("local", "down", "--dir", dir.toString());
    }
  }

  /**
   * {@code kubectl druid report} on the running sample: each member's logs and its agent's
   * metrics and member status (over the agent's TLS) are in the archive.
   */
  private static void assertReportHoldsTheAgentsAnswers(Path dir) throws java.io.IOException {
    Path archive = dir.resolve("report.zip");
    StringWriter out = new StringWriter();
    CommandLine report = cloud.gardener.druid.cli.KubectlDruid.commandLine();
    report.setOut(new PrintWriter(out, true));
    report.setErr(new PrintWriter(out, true));
    int exit = report.execute("report", "etcd-main", "--kubeconfig",
        dir.resolve("kubeconfig").toString(), "-f", archive.toString());
    assertThat(exit).as(out.toString()).isZero();
    java.util.Map<String, String> entries = new java.util.TreeMap<>();
    try (var zip = new java.util.zip.ZipInputStream(java.nio.file.Files.newInputStream(archive))) {
      for (var e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        entries.put(e.getName().substring(e.getName().indexOf('/') + 1),
            new String(zip.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    for (int i = 0; i < 3; i++) {
      String member = "etcd-main-" + i;
      assertThat(entries.get("agents/" + member + "/metrics.txt")).as(entries.get("README.txt"))
          .contains("-> 200", "etcdbr_");
      assertThat(entries.get("agents/" + member + "/member-status.txt"))
          .contains("-> 200", "\"clusterId\"");
      assertThat(entries.keySet()).anyMatch(n -> n.startsWith("logs/" + member + "/"));
    }
    assertThat(entries.get("status.txt")).contains("etcd-main");
  }

  private record Result(int exit, String output) {
  }

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    CommandLine command = DruidDev.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(out, true));
    int exit = command.execute(args);
    return new Result(exit, out.toString());
  }
}
