package cloud.gardener.druid.devtools.local;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.cli.shared.UserError;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * Applies the sample 3-member Etcd at the chosen etcd minor (built first where the members run
 * as processes) and waits until its rollout is complete.
 */
public final class LocalSampleEtcdHook implements LocalStack.Hook {

  static final String SAMPLE = "examples/etcd-3-local.yaml";
  static final long TIMEOUT_MINUTES = 5;

  private final String etcdMinor;

  LocalSampleEtcdHook(String etcdMinor) {
    this.etcdMinor = etcdMinor;
  }

  @Override
  public LocalStack.Started start(LocalCluster cluster) {
    Etcd etcd = load();
    etcd.getSpec().getEtcd().setVersion(etcdMinor);
    EtcdBuilds.directory(etcdMinor);
    KubernetesClient client = cluster.client();
    var resource = client.resources(Etcd.class).inNamespace(etcd.getMetadata().getNamespace())
        .resource(etcd);
    resource.fieldManager("druid-local").forceConflicts().serverSideApply();
    String name = etcd.getMetadata().getNamespace() + "/" + etcd.getMetadata().getName();
    try {
      client.resources(Etcd.class).inNamespace(etcd.getMetadata().getNamespace())
          .withName(etcd.getMetadata().getName())
          .waitUntilCondition(e -> e != null && RolloutCompletion.isComplete(e), TIMEOUT_MINUTES,
              TimeUnit.MINUTES);
    } catch (KubernetesClientTimeoutException e) {
      throw new UserError("sample Etcd " + name + " did not become ready within "
          + TIMEOUT_MINUTES + " minutes; see the pod logs under "
          + cluster.workDir().resolve("logs"));
    }
    return new LocalStack.Started("sample Etcd " + name + " (3 members, etcd " + etcdMinor
        + ", rollout complete;"
        + " druid ctl status " + etcd.getMetadata().getName() + ")", () -> { });
  }

  /** The sample Etcd as the jar carries it. */
  public static Etcd load() {
    try (InputStream in = LocalSampleEtcdHook.class.getClassLoader().getResourceAsStream(SAMPLE)) {
      if (in == null) {
        throw new IllegalStateException(SAMPLE + " is missing from the druid jar");
      }
      return Serialization.unmarshal(in, Etcd.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
