package cloud.gardener.druid.cli;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code druid ctl status}: members, roles, revisions, conditions and tasks of an Etcd. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "Show the members, roles, revisions, conditions, pending volume changes"
        + " and EtcdOpsTasks of an Etcd.")
final class CtlStatusCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  @Option(names = {"-n", "--namespace"}, defaultValue = "default",
      description = "Namespace (default: ${DEFAULT-VALUE}).")
  String namespace;

  @Option(names = "--kubeconfig", paramLabel = "FILE", description = "Kubeconfig to use.")
  String kubeconfig;

  @Override
  public Integer call() {
    try (KubernetesClient client = KubeClients.create(kubeconfig)) {
      Etcd etcd = client.resources(Etcd.class).inNamespace(namespace).withName(name).get();
      if (etcd == null) {
        throw new UserError("etcd " + namespace + "/" + name + " not found");
      }
      List<EtcdOpsTask> tasks = client.resources(EtcdOpsTask.class).inNamespace(namespace)
          .list().getItems();
      System.out.print(EtcdStatusReport.render(etcd, tasks));
      return 0;
    }
  }
}
