package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.ROLLOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.metrics.OperatorMetrics;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With nothing changing, reconciled Etcds cost the API server nothing: the operator (its
 * client counted by its own metrics, {@link OperatorRequests}) makes no request but its informers' watches over a
 * window longer than the resync interval of the former timer (30 s). A spec change afterwards
 * is still acted on (events, not a timer, drive the reconciles).
 */
@LocalKubernetes
class IdleCostIT {

  private static final Logger LOG = LoggerFactory.getLogger(IdleCostIT.class);
  private static final Duration WINDOW = Duration.ofSeconds(45);
  private static final int ETCDS = 3;

  /**
   * The current generation acted on and the last operation succeeded (an Etcd created with
   * replicas 0 never had conditions, so the rollout predicate does not apply to it).
   */
  private static boolean reconciled(Etcd e) {
    return e.getStatus() != null
        && e.getMetadata().getGeneration().equals(e.getStatus().getObservedGeneration())
        && e.getStatus().getLastOperation() != null
        && "Succeeded".equals(e.getStatus().getLastOperation().getState());
  }

  @Test
  void reconciledHibernatedEtcdsMakeNoRequests(LocalCluster cluster, TestNamespace ns)
      throws Exception {
    OperatorMetrics metrics = new OperatorMetrics();
    OperatorRequests counter = new OperatorRequests(metrics);
    KubernetesClient operatorClient = counter.client(cluster.kubeconfig());
    KubernetesClient client = cluster.newClient(null);
    CrdInstaller.install(client, "etcd-druid-tests");
    Path stores = Files.createDirectories(cluster.workDir().resolve("stores").resolve(ns.name()));
    EtcdOperator operator = new EtcdOperator(operatorClient, new EtcdOperator.Options(
        Set.of(ns.name()), true, false, null, new OperatorSettings(
            OperatorSettings.DEFAULT_IMAGE, stores.toString())), metrics);
    try (client; operatorClient; operator) {
      operator.start();
      for (int i = 0; i < ETCDS; i++) {
        Etcd etcd = ItSupport.load("etcd-1-local.yaml", ns.name());
        etcd.getMetadata().setName("idle-" + i);
        etcd.getSpec().setReplicas(0);
        client.resource(etcd).create();
      }
      for (int i = 0; i < ETCDS; i++) {
        String name = "idle-" + i;
        await().atMost(ROLLOUT).ignoreExceptions().until(() -> reconciled(
            client.resources(Etcd.class).inNamespace(ns.name()).withName(name).get()));
      }
      AtomicReference<Map<String, Long>> last = new AtomicReference<>(counter.counts());
      await().atMost(Duration.ofSeconds(60)).during(Duration.ofSeconds(5))
          .until(() -> last.getAndSet(counter.counts()).equals(last.get()));
      Map<String, Long> before = counter.counts();
      long start = System.nanoTime();
      await().during(WINDOW).atMost(WINDOW.plusSeconds(15))
          .until(() -> counter.counts().equals(before));
      double seconds = (System.nanoTime() - start) / 1e9;
      LOG.info("idle: {} requests in {} s from the operator with {} reconciled Etcds; {}",
          OperatorRequests.total(counter.since(before)), String.format("%.0f", seconds), ETCDS,
          counter.since(before));
      assertThat(counter.since(before)).as("requests of the operator while idle").isEmpty();

      Map<String, Long> idleEnd = counter.counts();
      Etcd changed = EtcdEdits.edit(client, ns.name(), "idle-0",
          e -> e.getSpec().getEtcd().setQuota(new Quantity("3Gi")));
      long generation = changed.getMetadata().getGeneration();
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
        Etcd e = client.resources(Etcd.class).inNamespace(ns.name()).withName("idle-0").get();
        return Long.valueOf(generation).equals(e.getStatus().getObservedGeneration())
            && reconciled(e);
      });
      LOG.info("the spec change cost {} requests: {}",
          OperatorRequests.total(counter.since(idleEnd)), counter.since(idleEnd));
    }
  }
}
