package cloud.gardener.druid.cli;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code druid ctl status}: members, roles, revisions and conditions of an Etcd. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "Show the members, roles, revisions, conditions and pending volume changes"
        + " of an Etcd.")
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
      System.out.print(EtcdStatusReport.render(etcd));
      return 0;
    }
  }
}
