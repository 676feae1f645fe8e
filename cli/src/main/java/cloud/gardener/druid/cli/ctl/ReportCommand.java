package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.cli.report.SupportReport;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code report NAME}: the support bundle of one Etcd ({@link SupportReport}). */
@Command(name = "report", mixinStandardHelpOptions = true,
    description = "Write one zip archive with what helps to find a problem of the Etcd: the"
        + " Etcd and its status, its tasks, the objects the operator manages for it, their"
        + " events, the logs of its pods, each member agent's metrics, health and status, and"
        + " the operator's logs and metrics. Secret values are redacted.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:written", "1:error",
        "2:usage error", "3:Etcd not found"})
final class ReportCommand implements Callable<Integer> {

  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Parameters(index = "0", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  @Option(names = {"-f", "--file"}, paramLabel = "FILE",
      description = "The archive to write (default: druid-report-<namespace>-<etcd>-<UTC time>"
          + ".zip in the current directory). An existing file is not overwritten.")
  Path file;

  @Option(names = "--operator-namespace", paramLabel = "NAMESPACE",
      description = "Where the operator's pods run (default: looked for in every namespace).")
  String operatorNamespace;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    String namespace = target.namespace();
    Path archive = file != null ? file : Path.of("druid-report-" + namespace + "-" + name + "-"
        + ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + ".zip");
    if (Files.exists(archive)) {
      throw new UserError("report: " + archive + " exists; name another with --file",
          ExitCodes.USAGE);
    }
    try (KubernetesClient client = target.client()) {
      Etcd etcd = Etcds.get(client.resources(Etcd.class).inNamespace(namespace).withName(name),
          namespace, name);
      List<EtcdOpsTask> tasks = client.resources(EtcdOpsTask.class).inNamespace(namespace)
          .list().getItems();
      SupportReport.Written written = SupportReport.write(client, etcd,
          EtcdStatusReport.render(etcd, tasks), operatorNamespace, archive);
      int missing = written.missing().size();
      // the number of files depends on restarts (previous logs): README.txt lists them
      out.println("wrote " + archive + (missing == 0 ? "" : "; " + missing
          + (missing == 1 ? " item" : " items") + " not collected, listed with the reason in"
          + " its README.txt"));
      return ExitCodes.OK;
    }
  }
}
