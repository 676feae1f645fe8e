package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.createEtcdWithVolumes;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.CapacitySpec;
import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.SharedConfig;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The capacity flow (docs/capacity.md) on the real control plane with real etcd members and
 * small quotas: churn kept below the quota by early defragmentation, data in use growing into
 * a raised quota (and grown volumes) up to maxQuota, and a cluster in NOSPACE that recovers by
 * itself with every key kept.
 */
@WithOperator
@ResourceLock(ItSupport.CLIENT_LOAD)
class CapacityIT {

  /**
   * How long the churn runs: long enough for one round of defragmentations in CI; the long run
   * of docs/benchmarks.md passes {@code -Ddruid.capacity.churn=PT10M}.
   */
  static final Duration CHURN = Duration.parse(System.getProperty("druid.capacity.churn",
      "PT100S"));

  @Test
  void churnUnderASmallQuotaIsDefragmentedEarlyWithoutAFailedWrite(TestNamespace ns,
      KubernetesClient client) throws Exception {
    createEtcdWithVolumes(client, ns, "churn", 3, "standard", capacity("64Mi", "1m", c ->
        c.setDefragmentWithin(GoDuration.parse("1h"))));
    awaitRolloutComplete(client, "churn", Duration.ofMinutes(4));
    try (MemberWatch members = MemberWatch.start(client, "churn");
        Predicates predicate = Predicates.start(client, "churn");
        ChurnWriter churn = new ChurnWriter(members::readyEndpoints, "/churn", 500, 8 << 10,
            10, 25)) {
      await().atMost(CHURN.plusMinutes(3)).pollInterval(Duration.ofSeconds(5))
          .until(() -> defragmented(client, "churn").size() >= 3);
      Thread.sleep(Math.max(0, CHURN.toMillis() - predicate.elapsedMillis()));
      churn.stop();

      assertThat(churn.failures()).as("failed requests of " + churn.requests()).isEmpty();
      assertThat(churn.noSpaceErrors()).isZero();
      assertThat(predicate.broken()).as("statuses without the rollout predicate").isEmpty();
      assertThat(members.minReady()).as("ready members at any time").isEqualTo(3);
    }
    List<Event> defrags = defragmented(client, "churn");
    assertThat(defrags).allSatisfy(e -> assertThat(e.getMessage())
        .contains("of the 64Mi quota").containsAnyOf("forecast to reach", "% of the"));
    assertThat(events(client, "Etcd", "churn")).as("the leader goes last, after leadership moved")
        .anyMatch(e -> "LeadershipMoved".equals(e.getReason())
            && e.getMessage().contains("last"));
    CapacityStatus status = etcd(client, "churn").getStatus().getCapacity();
    assertThat(status.getQuota()).isEqualTo(new Quantity("64Mi"));
    assertThat(status.getLastAction()).isNotBlank();
  }

  @Test
  void dataInUseGrowingRaisesTheQuotaAndGrowsTheVolumeUpToMaxQuota(TestNamespace ns,
      KubernetesClient client) throws Exception {
    createEtcdWithVolumes(client, ns, "grow", 1, "expandable", capacity("24Mi", "30m", c -> {
      c.setMaxQuota(new Quantity("48Mi"));
      c.setDefragmentWithin(GoDuration.parse("1h"));
    }).andThen(e -> e.getSpec().setStorageCapacity(new Quantity("128Mi"))));
    awaitRolloutComplete(client, "grow", Duration.ofMinutes(3));
    try (MemberWatch members = MemberWatch.start(client, "grow");
        ChurnWriter writer = new ChurnWriter(members::readyEndpoints, "/grow", 0, 8 << 10, 0,
            10, true)) {
      Condition atMax = await().atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofSeconds(3))
          .ignoreExceptions().until(() -> Condition.find(etcd(client, "grow").getStatus()
              .getConditions(), ConditionTypes.SPACE_AVAILABLE).orElseThrow(),
              c -> "QuotaAtMaximum".equals(c.getReason()));
      writer.stop();
      assertThat(atMax.getStatus()).isEqualTo(ConditionTypes.FALSE);
      assertThat(atMax.getMessage()).contains("maxQuota (48.0 MiB)");
      assertThat(writer.noSpaceErrors()).as("no write refused for space").isZero();
    }
    Etcd grown = etcd(client, "grow");
    assertThat(grown.getStatus().getCapacity().getRaisedQuota()).isEqualTo(new Quantity("48Mi"));
    assertThat(grown.getStatus().getCapacity().getQuota()).isEqualTo(new Quantity("48Mi"));
    Quantity storage = grown.getStatus().getCapacity().getGrownStorage();
    assertThat(storage.getNumericalAmount()).isGreaterThan(new Quantity("128Mi")
        .getNumericalAmount());
    assertThat(ItSupport.pvcs(client, "grow")).singleElement().satisfies(p -> assertThat(
        p.getStatus().getCapacity().get("storage")).isEqualTo(storage));
    assertThat(events(client, "Etcd", "grow")).extracting(Event::getReason)
        .contains("CapacityVolumeGrowing", "CapacityQuotaRaised");
  }

  @Test
  void aClusterInNoSpaceRecoversByItselfWithEveryKeyKept(TestNamespace ns,
      KubernetesClient client) throws Exception {
    createEtcdWithVolumes(client, ns, "nospace", 3, "standard", capacity("64Mi", "30m",
        c -> c.setCompactOnNoSpace(true)));
    awaitRolloutComplete(client, "nospace", Duration.ofMinutes(4));
    try (MemberWatch members = MemberWatch.start(client, "nospace");
        ChurnWriter writer = new ChurnWriter(members::readyEndpoints, "/full", 100, 16 << 10,
            0, 40)) {
      // about 30 MiB of history, then a quota below it while the writer goes on
      await().atMost(Duration.ofMinutes(3)).until(() -> writer.requests() > 1_900);
      EtcdEdits.edit(client, "nospace", e -> e.getSpec().getEtcd().setQuota(new Quantity("24Mi")));
      // the writer goes on until etcd's alarm is raised (a refused write alone may not raise it)
      await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions().until(() -> "NoSpaceAlarm".equals(Condition.find(etcd(client,
              "nospace").getStatus().getConditions(), ConditionTypes.SPACE_AVAILABLE)
              .orElseThrow().getReason()) || events(client, "Etcd", "nospace").stream()
              .anyMatch(e -> "NoSpaceCompacted".equals(e.getReason())));
      writer.stop();
      assertThat(writer.noSpaceErrors()).as("writes refused for space").isPositive();
      await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(3))
          .ignoreExceptions().until(() -> events(client, "Etcd", "nospace").stream()
              .anyMatch(e -> "NoSpaceAlarmDisarmed".equals(e.getReason())));
      try (Client etcd = EtcdClients.connect(EtcdClients.endpoints(client,
          etcd(client, "nospace")))) {
        assertThat(writer.verify(etcd)).as("keys not as last written").isEmpty();
        EtcdClients.put(etcd.getKVClient(), "/after", "writable again");
      }
    }
    List<String> reasons = events(client, "Etcd", "nospace").stream().map(Event::getReason)
        .toList();
    assertThat(reasons).containsSubsequence("NoSpaceCompacted", "CapacityDefragmented",
        "NoSpaceAlarmDisarmed");
    assertThat(reasons.stream().filter("CapacityDefragmented"::equals)).hasSizeGreaterThanOrEqualTo(3);
    await().atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() -> Condition.find(
        etcd(client, "nospace").getStatus().getConditions(), ConditionTypes.SPACE_AVAILABLE)
        .orElseThrow().getStatus().equals(ConditionTypes.TRUE));
  }

  private static List<Event> defragmented(KubernetesClient client, String name) {
    return events(client, "Etcd", name).stream()
        .filter(e -> "CapacityDefragmented".equals(e.getReason())).toList();
  }

  /** A small quota, periodic compaction keeping {@code retention}, the capacity settings. */
  private static Consumer<Etcd> capacity(String quota, String retention,
      Consumer<CapacitySpec> settings) {
    return e -> {
      e.getSpec().getEtcd().setQuota(new Quantity(quota));
      CapacitySpec c = new CapacitySpec();
      settings.accept(c);
      e.getSpec().getEtcd().setCapacity(c);
      SharedConfig shared = e.getSpec().getSharedConfig() == null ? new SharedConfig()
          : e.getSpec().getSharedConfig();
      shared.setAutoCompactionRetention(retention);
      e.getSpec().setSharedConfig(shared);
    };
  }

  /** Every status version of an Etcd while watched: the ones without the rollout predicate. */
  static final class Predicates implements AutoCloseable {
    private final ConcurrentLinkedQueue<String> broken = new ConcurrentLinkedQueue<>();
    private final long started = System.currentTimeMillis();
    private Watch watch;

    static Predicates start(KubernetesClient client, String name) {
      Predicates p = new Predicates();
      p.watch = client.resources(Etcd.class).withName(name).watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, Etcd etcd) {
          if (!RolloutCompletion.isComplete(etcd)) {
            p.broken.add(etcd.getMetadata().getResourceVersion() + ": "
                + RolloutCompletion.pendingReasons(etcd));
          }
        }

        @Override
        public void onClose(WatcherException cause) {
        }
      });
      return p;
    }

    List<String> broken() {
      return List.copyOf(broken);
    }

    long elapsedMillis() {
      return System.currentTimeMillis() - started;
    }

    @Override
    public void close() {
      watch.close();
    }
  }
}
