package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdSpec;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.LastOperation;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The arithmetic behind the figures of {@code druid bench scale}. */
class ScaleFiguresTest {

  private static final String BEFORE = """
      # HELP apiserver_request_total [STABLE] Counter of apiserver requests.
      # TYPE apiserver_request_total counter
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="druid.gardener.cloud",resource="etcds",scope="namespace",subresource="",verb="GET",version="v1alpha1"} 100
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="druid.gardener.cloud",resource="etcds",scope="namespace",subresource="status",verb="PUT",version="v1alpha1"} 10
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="LIST",version="v1"} 40
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="WATCH",version="v1"} 5
      apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/metrics",verb="GET",version=""} 3
      """;

  /** 60 s later: 120 more GETs of etcds (one with another code), 30 status PUTs, a new
   *  series of 60 APPLYs of services, 2 more watches, 1 more scrape; LISTs unchanged. */
  private static final String AFTER = """
      # TYPE apiserver_request_total counter
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="druid.gardener.cloud",resource="etcds",scope="namespace",subresource="",verb="GET",version="v1alpha1"} 219
      apiserver_request_total{code="404",component="apiserver",dry_run="",group="druid.gardener.cloud",resource="etcds",scope="namespace",subresource="",verb="GET",version="v1alpha1"} 1
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="druid.gardener.cloud",resource="etcds",scope="namespace",subresource="status",verb="PUT",version="v1alpha1"} 40
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="LIST",version="v1"} 40
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="WATCH",version="v1"} 7
      apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="services",scope="namespace",subresource="",verb="APPLY",version="v1"} 60
      apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/metrics",verb="GET",version=""} 4
      """;

  @Test
  void requestRatesAreCounterDeltasOverTheWindowWithWatchesAndScrapesApart() {
    RequestRates rates = RequestRates.between(PrometheusScrape.parse(BEFORE),
        PrometheusScrape.parse(AFTER), 60);

    assertThat(rates.perSecond()).isCloseTo((120 + 30 + 60) / 60.0, within(1e-9));
    assertThat(rates.watchesOpenedPerSecond()).isCloseTo(2 / 60.0, within(1e-9));
    assertThat(rates.byVerbAndResource()).containsOnly(
        Map.entry("GET etcds", 2.0), Map.entry("PUT etcds/status", 0.5),
        Map.entry("APPLY services", 1.0));
    assertThat(ScaleReport.topRequests(rates.byVerbAndResource())).extracting(Map.Entry::getKey)
        .containsExactly("GET etcds", "APPLY services", "PUT etcds/status");
  }

  @Test
  void anEmptyWindowIsRefused() {
    PrometheusScrape scrape = PrometheusScrape.parse(BEFORE);
    assertThatThrownBy(() -> RequestRates.between(scrape, scrape, 0))
        .hasMessageContaining("window must be positive");
  }

  @Test
  void cpuIsTicksOverWallTimeAsShareOfOneCore() {
    // the command name holds a blank and a parenthesis, as a thread name may
    String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 2048 0 0 0 %d %d 0 0 20 0"
        + " 30 0 123456 4096000000 51200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1";
    long ticksBefore = ProcSample.cpuTicks(String.format(stat, 1000, 250));
    long ticksAfter = ProcSample.cpuTicks(String.format(stat, 1900, 400));
    assertThat(ticksBefore).isEqualTo(1250);

    // 1050 ticks = 10.5 s of CPU in 30 s of wall time
    ProcSample from = new ProcSample(0, ticksBefore, 0);
    ProcSample to = new ProcSample(30_000_000_000L, ticksAfter, 0);
    assertThat(ProcSample.cpuPercentOfCore(from, to)).isCloseTo(35.0, within(1e-9));
  }

  @Test
  void rssIsTheVmRssLineInKib() {
    String status = "Name:\tjava\nVmPeak:\t 5000000 kB\nVmRSS:\t  204800 kB\nThreads:\t40\n";
    assertThat(ProcSample.rssKib(status)).isEqualTo(204800);
    assertThatThrownBy(() -> ProcSample.rssKib("Name:\tjava\n")).hasMessageContaining("VmRSS");
  }

  @Test
  void percentilesAreNearestRank() {
    List<Long> millis = List.of(40L, 10L, 30L, 20L, 1000L, 50L, 60L, 70L, 80L, 90L);
    assertThat(Percentiles.of(millis, 50)).isEqualTo(50);
    assertThat(Percentiles.of(millis, 99)).isEqualTo(1000);
    assertThat(Percentiles.of(List.of(7L), 99)).isEqualTo(7);
  }

  @Test
  void heapIsTheSumOfTheHeapPools() {
    PrometheusScrape metrics = PrometheusScrape.parse("""
        # TYPE jvm_memory_used_bytes gauge
        jvm_memory_used_bytes{area="heap",id="Tenured Gen"} 3.0E7
        jvm_memory_used_bytes{area="heap",id="Eden Space"} 1.0E7
        jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 9.0E7
        # TYPE jvm_memory_max_bytes gauge
        jvm_memory_max_bytes{area="heap",id="Tenured Gen"} 2.5E8
        jvm_memory_max_bytes{area="heap",id="Eden Space"} 1.0E8
        jvm_memory_max_bytes{area="nonheap",id="Compressed Class Space"} -1
        """);
    assertThat(WindowReading.heapUsedBytes(metrics)).isEqualTo(4.0E7);
    assertThat(WindowReading.heapMaxBytes(metrics)).isEqualTo(3.5E8);
  }

  @Test
  void theChartsJvmFlagsGetItsMemoryLimitAsMaxRam() {
    assertThat(ChartJvmOptions.fromValues("""
        jvm:
          options: "-XX:MaxRAMPercentage=70 -XX:+UseSerialGC"
        resources:
          limits:
            memory: 512Mi
        """)).containsExactly("-XX:MaxRAMPercentage=70", "-XX:+UseSerialGC",
        "-XX:MaxRAM=536870912");
  }

  @Test
  void theFleetIsMostlyHibernatedAndItsCountsAreChecked() {
    FleetPlan plan = new FleetPlan(10, 2, 1);
    assertThat(plan.hibernated()).isEqualTo(7);
    assertThat(plan.members()).isEqualTo(5);
    assertThat(plan.etcdsToCreate()).extracting(FleetPlan.Member::replicas)
        .containsExactly(3, 1, 1, 0, 0, 0, 0, 0, 0, 0);
    assertThat(plan.etcdsToCreate()).extracting(FleetPlan.Member::name).doesNotHaveDuplicates();
    assertThatThrownBy(() -> new FleetPlan(2, 2, 1)).hasMessageContaining("exceed --etcds");
    assertThatThrownBy(() -> new FleetPlan(0, 0, 0)).hasMessageContaining("--etcds");
  }

  @Test
  void aHibernatedEtcdIsReconciledOnItsGenerationAndSucceededWithoutConditions() {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName("idle-0001").withGeneration(3L).build());
    etcd.setSpec(new EtcdSpec());
    etcd.getSpec().setReplicas(0);
    assertThat(Fleet.reconciled(etcd)).as("no status yet").isFalse();
    etcd.setStatus(new EtcdStatus());
    etcd.getStatus().setObservedGeneration(2L);
    LastOperation succeeded = new LastOperation();
    succeeded.setState(RolloutCompletion.SUCCEEDED);
    etcd.getStatus().setLastOperation(succeeded);
    assertThat(Fleet.reconciled(etcd)).as("an older generation").isFalse();
    etcd.getStatus().setObservedGeneration(3L);
    assertThat(Fleet.reconciled(etcd)).isTrue();

    etcd.getSpec().setReplicas(1);
    assertThat(Fleet.reconciled(etcd)).as("with members the conditions count too").isFalse();
  }

  @Test
  void theOperatorsRequestsAreItsOwnCounterAndTheRestIsTheOtherClients() {
    PrometheusScrape before = PrometheusScrape.parse("""
        # TYPE etcddruid_client_requests_total counter
        etcddruid_client_requests_total{resource="leases",subresource="",verb="get"} 10
        etcddruid_client_requests_total{resource="leases",subresource="",verb="patch"} 10
        etcddruid_client_requests_total{resource="pods",subresource="",verb="watch"} 7
        """);
    PrometheusScrape after = PrometheusScrape.parse("""
        # TYPE etcddruid_client_requests_total counter
        etcddruid_client_requests_total{resource="leases",subresource="",verb="get"} 16
        etcddruid_client_requests_total{resource="leases",subresource="",verb="patch"} 16
        etcddruid_client_requests_total{resource="pods",subresource="",verb="watch"} 8
        etcddruid_client_requests_total{resource="",subresource="",verb="get"} 3
        """);
    RequestRates own = RequestRates.between(before, after, 60, RequestRates.OPERATOR_COUNTER);
    assertThat(own.perSecond()).isCloseTo(0.2, within(1e-9));
    assertThat(own.watchesOpenedPerSecond()).isCloseTo(1 / 60.0, within(1e-9));
    assertThat(own.byVerbAndResource()).containsOnly(Map.entry("GET leases", 0.1),
        Map.entry("PATCH leases", 0.1));

    RequestRates all = new RequestRates(1.5, 0.05, Map.of("GET leases", 0.6,
        "PATCH leases", 0.5, "POST events", 0.4));
    RequestRates others = all.minus(own);
    assertThat(others.perSecond()).isCloseTo(1.3, within(1e-9));
    assertThat(others.byVerbAndResource()).containsOnlyKeys("GET leases", "PATCH leases",
        "POST events");
    assertThat(others.byVerbAndResource().get("GET leases")).isCloseTo(0.5, within(1e-9));
  }

  @Test
  void theTableNamesEveryFigureAndTheOperatorsShare() {
    RequestRates with = new RequestRates(12.5, 0.1, Map.of("GET etcds", 10.0,
        "APPLY services", 2.5, "POST events", 1.0));
    RequestRates operator = new RequestRates(10.5, 0.05, Map.of("GET etcds", 10.0,
        "APPLY services", 0.5));
    RequestRates without = new RequestRates(2.0, 0.0, Map.of());
    ScaleReport report = new ScaleReport(new FleetPlan(100, 2, 1), List.of("-Xmx64m"), 1.5,
        new Phase(20.25, 40.0), 3.0, 97, new Phase(31.0, 35.0),
        new WindowFigures(60, with, operator, 40.0, 29.0, 300.0, 120.0, 358.0),
        new WindowFigures(60, without, null, 10.0, null, null, null, null), List.of(300L, 500L));
    StringWriter text = new StringWriter();
    report.printTable(new PrintWriter(text));

    assertThat(text.toString())
        .contains("100 Etcds (97 hibernated, 2 with 1 member, 1 with 3; 5 member pods)")
        .containsPattern("hibernated ones reconciled after creation +20\\.3 s")
        .containsPattern("all reconciled after creation +40\\.0 s")
        .containsPattern("hibernated ones reconciled \\(97 changed while down\\) +31\\.0 s")
        .containsPattern("restart: all reconciled +35\\.0 s")
        .containsPattern("p50 / p99 \\(2 changes\\) +300 / 500 ms")
        .containsPattern("API requests/s of the operator \\(its client's counter\\) +10\\.50")
        .containsPattern("API requests/s of the other clients \\(all - operator\\) +2\\.00")
        .containsPattern("WATCH requests opened/s by the operator +0\\.05")
        .containsPattern("operator RSS +300 MiB")
        .containsPattern("(?s)the operator's requests/s.*GET etcds +10\\.00.*other clients'"
            + " busiest requests/s.*APPLY services +2\\.00\\n +POST events +1\\.00");
    assertThat(report.json()).contains("\"operatorRequestsPerSecond\" : 10.5",
        "\"otherRequestsPerSecond\" : 2.0", "\"specChangeP99\" : 500", "\"hibernated\" : 97");
  }
}
