package cloud.gardener.druid.devtools.local;

import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.testenv.LocalCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** Installs the CRDs and runs the operator inside the {@code druid local up} process. */
final class LocalOperatorHook implements LocalStack.Hook {

  @Override
  public LocalStack.Started start(LocalCluster cluster) {
    KubernetesClient client = cluster.newClient(null);
    CrdInstaller.install(client, "etcd-druid");
    Path stores = stores(cluster);
    EtcdOperator operator = new EtcdOperator(client, new EtcdOperator.Options(Set.of(), true,
        false, null, new OperatorSettings(OperatorSettings.DEFAULT_IMAGE, stores.toString())));
    operator.start();
    return new LocalStack.Started("operator (in this process; Local backup stores under "
        + stores + ")", () -> {
          operator.close();
          client.close();
        });
  }

  private static Path stores(LocalCluster cluster) {
    try {
      return Files.createDirectories(cluster.workDir().resolve("stores"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
