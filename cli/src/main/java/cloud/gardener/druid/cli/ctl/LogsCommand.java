package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.GoDurationConverter;
import cloud.gardener.druid.cli.shared.UserError;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.dsl.PodResource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code logs}: member logs through the API server's pods/log, as {@code kubectl logs}. */
@Command(name = "logs", mixinStandardHelpOptions = true,
    description = "Print the logs of one member (agent and etcd), or of every member with a"
        + " [member] prefix on each line. Reads pods/log, as kubectl logs does.",
    exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:printed", "1:error",
        "2:usage error", "3:Etcd or member not found"})
final class LogsCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Parameters(index = "0", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  @Parameters(index = "1", arity = "0..1", paramLabel = "MEMBER",
      description = "The member (pod name), e.g. etcd-main-0 (default: every member).")
  String member;

  @Option(names = {"-c", "--container"}, paramLabel = "CONTAINER",
      description = "Container (default: the member's first container).")
  String container;

  @Option(names = "--tail", paramLabel = "LINES", defaultValue = "-1",
      description = "Lines from the end of each log; -1 for all (default: ${DEFAULT-VALUE}).")
  int tail;

  @Option(names = "--since", paramLabel = "DURATION", converter = GoDurationConverter.class,
      description = "Only lines newer than this, e.g. 5m, 1h.")
  Duration since;

  @Option(names = {"-p", "--previous"},
      description = "The log of the previous, terminated container.")
  boolean previous;

  @Option(names = {"-f", "--follow"}, description = "Keep streaming new lines (one member only).")
  boolean follow;

  @Override
  public Integer call() throws IOException {
    if (follow && member == null) {
      throw new UserError("--follow needs a MEMBER", ExitCodes.USAGE);
    }
    PrintWriter out = spec.commandLine().getOut();
    String namespace = target.namespace();
    try (KubernetesClient client = target.client()) {
      Etcd etcd = Etcds.get(client.resources(Etcd.class).inNamespace(namespace).withName(name),
          namespace, name);
      List<String> members = new ArrayList<>();
      if (member != null) {
        Members.requireMember(etcd, member);
        members.add(member);
      } else {
        int replicas = etcd.getSpec().getReplicas() == null ? 0 : etcd.getSpec().getReplicas();
        for (int i = 0; i < replicas; i++) {
          members.add(name + "-" + i);
        }
      }
      for (String m : members) {
        print(client.pods().inNamespace(namespace).withName(m), m, members.size() > 1, out);
      }
      return ExitCodes.OK;
    }
  }

  private void print(PodResource pod, String memberName, boolean prefix, PrintWriter out)
      throws IOException {
    Pod p = pod.get();
    if (p == null) {
      if (member != null) {
        throw new UserError("pod " + memberName + " not found", ExitCodes.NOT_FOUND);
      }
      out.println("[" + memberName + "] (no pod)");
      return;
    }
    String c = container != null ? container : p.getSpec().getContainers().get(0).getName();
    var logs = pod.inContainer(c);
    var options = previous ? logs.terminated() : logs;
    var timed = since == null ? options
        : options.sinceSeconds((int) Math.max(1, since.toSeconds()));
    var tailed = tail >= 0 ? timed.tailingLines(tail) : timed;
    if (follow) {
      try (LogWatch watch = tailed.watchLog()) {
        copy(new InputStreamReader(watch.getOutput(), StandardCharsets.UTF_8), null, out);
      }
      return;
    }
    copy(tailed.getLogReader(), prefix ? "[" + memberName + "] " : null, out);
  }

  private static void copy(Reader reader, String prefix, PrintWriter out) throws IOException {
    try (BufferedReader lines = new BufferedReader(reader)) {
      String line;
      while ((line = lines.readLine()) != null) {
        out.println(prefix == null ? line : prefix + line);
        out.flush();
      }
    }
  }
}
