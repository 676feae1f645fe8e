package cloud.gardener.druid.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import cloud.gardener.druid.api.v1alpha1.Condition;
import io.fabric8.kubernetes.api.model.Quantity;

class OperatorMetricsTest {

  private final OperatorMetrics metrics = new OperatorMetrics();
  /** JOSDK's part needs registered controllers (OperatorMetricsIT); the gauges' part not. */
  private final io.javaoperatorsdk.operator.api.monitoring.Metrics josdk =
      new OperatorMetrics.WithEtcdGauges(
          io.javaoperatorsdk.operator.api.monitoring.Metrics.NOOP, metrics.etcds(),
          new ReconcileErrors(metrics.registry()));

  @AfterEach
  void close() {
    metrics.close();
  }

  @Test
  void anEtcdsGaugesFollowTheStatusTheOperatorWroteAndGoWithIt() {
    Etcd etcd = Etcds.etcd("main", 3);
    etcd.getMetadata().setResourceVersion("10");
    event(ResourceAction.ADDED, etcd);
    Map<String, String> labels = Map.of("etcd_namespace", "ns", "etcd", "main");
    PrometheusScrape fresh = scrape();

    Etcd later = Etcds.etcd("main", 3);
    later.getMetadata().setResourceVersion("12");
    EtcdStatus status = new EtcdStatus();
    status.setReadyReplicas(2);
    VolumeOperation replacing = new VolumeOperation();
    replacing.setType(VolumeOperation.TYPE_REPLACE);
    replacing.setPhase(VolumeOperation.PHASE_REPLACING);
    status.setVolumeOperation(replacing);
    status.setLastErrors(java.util.List.of(new cloud.gardener.druid.api.v1alpha1.LastError()));
    later.setStatus(status);
    event(ResourceAction.UPDATED, later);
    josdk.reconcileCustomResource(etcd, null, Map.of());
    PrometheusScrape updated = scrape();

    assertThat(fresh.types()).containsEntry(EtcdGauges.MEMBERS_READY, "gauge")
        .containsEntry(EtcdGauges.REPLICAS, "gauge")
        .containsEntry(EtcdGauges.ROLLOUT_IN_PROGRESS, "gauge")
        .containsEntry(EtcdGauges.VOLUME_OPERATION_PHASE, "gauge");
    assertThat(fresh.value(EtcdGauges.MEMBERS_READY, labels)).hasValue(0.0);
    assertThat(fresh.value(EtcdGauges.ROLLOUT_IN_PROGRESS, labels)).hasValue(1.0);
    assertThat(updated.value(EtcdGauges.MEMBERS_READY, labels))
        .as("an older version reconciled later does not win").hasValue(2.0);
    assertThat(updated.value(EtcdGauges.REPLICAS, labels)).hasValue(3.0);
    assertThat(fresh.value(EtcdGauges.LAST_ERRORS, labels)).hasValue(0.0);
    assertThat(updated.value(EtcdGauges.LAST_ERRORS, labels)).hasValue(1.0);
    assertThat(updated.samples(EtcdGauges.VOLUME_OPERATION_PHASE))
        .hasSize(EtcdGauges.PHASES.size())
        .allSatisfy(s -> assertThat(s.value()).isEqualTo(
            VolumeOperation.PHASE_REPLACING.equals(s.labels().get("phase")) ? 1.0 : 0.0));

    josdk.cleanupDoneFor(new ResourceID("main", "ns"),
        Map.of(Constants.RESOURCE_GVK_KEY, GroupVersionKind.gvkFor(Etcd.class)));

    assertThat(scrape().types()).doesNotContainKeys(EtcdGauges.MEMBERS_READY,
        EtcdGauges.VOLUME_OPERATION_PHASE);
  }

  @Test
  void theSpaceAndItsForecastAreGaugesOfTheStatus() {
    Etcd etcd = Etcds.etcd("main", 3);
    etcd.getMetadata().setResourceVersion("10");
    EtcdStatus status = new EtcdStatus();
    CapacityStatus c = new CapacityStatus();
    c.setDbSize(new Quantity("45Mi"));
    c.setDbSizeInUse(new Quantity("12Mi"));
    c.setQuota(new Quantity("64Mi"));
    c.setTimeToQuota("30m");
    status.setCapacity(c);
    Condition space = new Condition();
    space.setType("SpaceAvailable");
    space.setStatus("False");
    status.setConditions(java.util.List.of(space));
    etcd.setStatus(status);
    event(ResourceAction.ADDED, etcd);
    Map<String, String> labels = Map.of("etcd_namespace", "ns", "etcd", "main");
    PrometheusScrape s = scrape();

    assertThat(s.value(EtcdGauges.DB_SIZE, labels)).hasValue(45.0 * (1 << 20));
    assertThat(s.value(EtcdGauges.DB_SIZE_IN_USE, labels)).hasValue(12.0 * (1 << 20));
    assertThat(s.value(EtcdGauges.QUOTA, labels)).hasValue(64.0 * (1 << 20));
    assertThat(s.value(EtcdGauges.TIME_TO_QUOTA, labels)).hasValue(1800.0);
    assertThat(s.value(EtcdGauges.TIME_TO_VOLUME_FULL, labels).orElseThrow()).isNaN();
    assertThat(s.value(EtcdGauges.SPACE_AVAILABLE, labels)).hasValue(0.0);
  }

  @Test
  void aCorruptedMemberAndTheVerifiedBackupsRevisionLagAreGaugesOfTheStatus() {
    Etcd etcd = Etcds.etcd("main", 3);
    etcd.getMetadata().setResourceVersion("10");
    event(ResourceAction.ADDED, etcd);
    Map<String, String> labels = Map.of("etcd_namespace", "ns", "etcd", "main");
    PrometheusScrape before = scrape();

    Etcd later = Etcds.etcd("main", 3);
    later.getMetadata().setResourceVersion("11");
    EtcdStatus status = new EtcdStatus();
    java.util.List<cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus> members =
        new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      var m = new cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus();
      m.setName("main-" + i);
      m.setDataCorruption(i == 2 ? "etcd's initial corruption check found …" : null);
      members.add(m);
    }
    status.setMembers(members);
    status.setVerifiedBackupRevisionLag(1200L);
    later.setStatus(status);
    event(ResourceAction.UPDATED, later);
    PrometheusScrape after = scrape();

    assertThat(before.value(EtcdGauges.BACKUP_REVISION_LAG, labels).orElseThrow()).isNaN();
    assertThat(before.samples(EtcdGauges.MEMBER_DATA_CORRUPTED)).isEmpty();
    assertThat(after.value(EtcdGauges.BACKUP_REVISION_LAG, labels)).hasValue(1200.0);
    assertThat(after.samples(EtcdGauges.MEMBER_DATA_CORRUPTED))
        .extracting(x -> x.labels().get("member") + "=" + x.value())
        .containsExactlyInAnyOrder("main-0=0.0", "main-1=0.0", "main-2=1.0");

    josdk.cleanupDoneFor(new ResourceID("main", "ns"),
        Map.of(Constants.RESOURCE_GVK_KEY, GroupVersionKind.gvkFor(Etcd.class)));
    assertThat(scrape().samples(EtcdGauges.MEMBER_DATA_CORRUPTED)).isEmpty();
  }

  @Test
  void reconcileErrorsAreCountedPerControllerFromZero() {
    ReconcileErrors errors = new ReconcileErrors(metrics.registry());
    errors.registered("etcd");
    errors.registered("etcdopstask");
    assertThat(scrape().samples(ReconcileErrors.NAME + "_total"))
        .extracting(s -> s.labels().get("controller") + "=" + s.value())
        .containsExactlyInAnyOrder("etcd=0.0", "etcdopstask=0.0");

    josdk.failedReconciliation(Etcds.etcd("main", 3), new IllegalStateException("boom"),
        Map.of(Constants.CONTROLLER_NAME, "etcd"));
    josdk.failedReconciliation(Etcds.etcd("main", 3), new IllegalStateException("boom"),
        Map.of());

    assertThat(scrape().value(ReconcileErrors.NAME + "_total", Map.of("controller", "etcd")))
        .as("without the controller's name in the metadata: the kind's").hasValue(2.0);
    assertThat(scrape().value(ReconcileErrors.NAME + "_total",
        Map.of("controller", "etcdopstask"))).hasValue(0.0);
  }

  @Test
  void aDeletedEtcdTakesItsGaugesAlongOthersStay() {
    event(ResourceAction.ADDED, Etcds.etcd("a", 1));
    event(ResourceAction.ADDED, Etcds.etcd("b", 1));

    event(ResourceAction.DELETED, Etcds.etcd("a", 1));

    assertThat(scrape().samples(EtcdGauges.REPLICAS))
        .extracting(s -> s.labels().get("etcd")).containsExactly("b");
  }

  @Test
  void processAndJvmFamiliesAreExposed() {
    PrometheusScrape scrape = scrape();

    assertThat(scrape.types()).containsEntry("process_cpu_seconds_total", "counter")
        .containsEntry("process_resident_memory_bytes", "gauge")
        .containsEntry("process_open_fds", "gauge")
        .containsEntry("jvm_memory_used_bytes", "gauge");
  }

  @Test
  void serverAnswersMetricsHealthAndReadiness() throws Exception {
    AtomicBoolean ready = new AtomicBoolean(false);
    try (MetricsServer server = new MetricsServer(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), metrics::scrape, ready::get)) {
      String base = "http://127.0.0.1:" + server.port();

      HttpResponse<String> scrape = get(base + MetricsServer.METRICS);
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(PrometheusScrape.parse(scrape.body()).types()).containsKey("process_open_fds");
      assertThat(get(base + MetricsServer.HEALTHZ).statusCode()).isEqualTo(200);
      assertThat(get(base + MetricsServer.READYZ).statusCode()).isEqualTo(503);
      ready.set(true);
      assertThat(get(base + MetricsServer.READYZ).statusCode()).isEqualTo(200);
      assertThat(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create(base + MetricsServer.METRICS)).POST(HttpRequest.BodyPublishers.noBody())
              .build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
    }
  }

  private void event(ResourceAction action, Etcd etcd) {
    josdk.receivedEvent(new ResourceEvent(action, ResourceID.fromResource(etcd), etcd),
        Map.of());
  }

  private PrometheusScrape scrape() {
    return PrometheusScrape.parse(metrics.scrape());
  }

  private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
