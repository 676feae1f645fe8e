package cloud.gardener.druid.operator.bench;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskSpec;
import cloud.gardener.druid.api.v1alpha1.RetireSourceMembersConfig;
import cloud.gardener.druid.operator.it.BenchmarkAccess;
import cloud.gardener.druid.operator.it.SourceCluster;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.node.DruidImage;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * How long an Etcd of 3 members takes to join a 3-member plain etcd cluster holding
 * {@code args[0]} MiB (default 1024) of 8 KiB random values, and how long retiring the
 * source members then takes: create to condition {@code BootstrappedWithExistingCluster}
 * True, and task create to Succeeded. Not a test: run it and read the figures.
 *
 * <pre>
 * mvn -q -o -pl operator -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * java -Ddruid.repoRoot=$PWD -cp operator/target/test-classes:operator/target/classes:$(cat /tmp/cp.txt) \
 *   cloud.gardener.druid.operator.bench.JoinBenchmark 1024
 * </pre>
 */
public final class JoinBenchmark {

  private static final int VALUE = 8 * 1024;

  private JoinBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int mib = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
    Path work = Files.createTempDirectory("druid-bench");
    try (LocalCluster cluster = LocalCluster.start(new LocalCluster.Options(work,
        DruidImage.classpath(DruidImage.DEFAULT_IMAGE, System.getProperty("java.class.path"),
            DruidImage.DEFAULT_MAIN_CLASSES), null));
        BenchmarkAccess bench = BenchmarkAccess.start(cluster, "bench");
        SourceCluster source = SourceCluster.start(3, EtcdRelease.DEFAULT.minor(),
            work.resolve("source"), SourceCluster.freeSubnet(9), Optional.empty())) {
      long fill = System.nanoTime();
      long dbSize = fill(source, mib);
      System.out.printf("source filled: %d MiB of values, database %d MiB, in %.1f s%n", mib,
          dbSize >> 20, (System.nanoTime() - fill) / 1e9);
      KubernetesClient client = bench.client();
      long join = System.nanoTime();
      bench.createSample("etcd-3-local.yaml", "bench", 3, e -> {
        e.getSpec().getEtcd().setBootstrapWithExistingCluster(source.joinSpec());
        e.getSpec().getEtcd().setQuota(new io.fabric8.kubernetes.api.model.Quantity("8Gi"));
      });
      client.resources(Etcd.class).withName("bench").waitUntilCondition(e -> e != null
          && e.getStatus() != null && Condition.find(e.getStatus().getConditions(),
              ConditionTypes.BOOTSTRAPPED_WITH_EXISTING_CLUSTER)
              .filter(c -> "True".equals(c.getStatus())).isPresent(), 60, TimeUnit.MINUTES);
      double joined = (System.nanoTime() - join) / 1e9;
      long retire = System.nanoTime();
      client.resource(retireTask()).create();
      client.resources(EtcdOpsTask.class).withName("retire").waitUntilCondition(t -> t != null
          && t.getStatus() != null && "Succeeded".equals(t.getStatus().getState()),
          30, TimeUnit.MINUTES);
      double retired = (System.nanoTime() - retire) / 1e9;
      System.out.printf("join of 3 members: %.1f s (%.1f s per member); retiring 3 source"
          + " members: %.1f s%n", joined, joined / 3, retired);
    }
  }

  /** Writes {@code mib} MiB of random 8 KiB values, 64 puts in flight; the database size. */
  private static long fill(SourceCluster source, int mib) throws Exception {
    Random random = new Random(42);
    Semaphore inFlight = new Semaphore(64);
    try (Client c = Client.builder().endpoints(source.clientUrls().toArray(String[]::new))
        .build()) {
      long count = (long) mib * 1024 * 1024 / VALUE;
      for (long i = 0; i < count; i++) {
        byte[] value = new byte[VALUE];
        random.nextBytes(value);
        inFlight.acquire();
        CompletableFuture<?> put = c.getKVClient().put(
            ByteSequence.from(("/bench/" + i).getBytes()), ByteSequence.from(value));
        put.whenComplete((r, e) -> inFlight.release());
      }
      inFlight.acquire(64);
      return c.getMaintenanceClient().statusMember(source.clientUrl(0))
          .get(30, TimeUnit.SECONDS).getDbSize();
    }
  }

  private static EtcdOpsTask retireTask() {
    EtcdOpsTask task = new EtcdOpsTask();
    task.setMetadata(new ObjectMetaBuilder().withName("retire").build());
    EtcdOpsTaskSpec spec = new EtcdOpsTaskSpec();
    spec.setEtcdName("bench");
    EtcdOpsTaskConfig config = new EtcdOpsTaskConfig();
    RetireSourceMembersConfig retire = new RetireSourceMembersConfig();
    retire.setTimeoutSeconds((int) Duration.ofMinutes(30).toSeconds());
    config.setRetireSourceMembers(retire);
    spec.setConfig(config);
    task.setSpec(spec);
    return task;
  }
}
