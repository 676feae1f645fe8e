package cloud.gardener.druid.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.metrics.BackupRestoreMetrics.RestoreKind;
import cloud.gardener.druid.agent.metrics.UpstreamMetrics.Family;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape.Sample;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BackupRestoreMetricsTest {

  private static final List<Family> UPSTREAM = UpstreamMetrics.FAMILIES;
  private static final List<String> DEFAULT_BUCKETS = UpstreamMetrics.DEFAULT_BUCKETS;
  private static final List<String> GARDENER_ALLOW_LIST = UpstreamMetrics.GARDENER_ALLOW_LIST;

  private final BackupRestoreMetrics metrics = new BackupRestoreMetrics(
      NetworkUsage.ofThisProcess().or(() -> java.util.Optional.of(
          new NetworkUsage(java.nio.file.Path.of("/nonexistent")))));

  @Test
  void exposesUpstreamFamiliesWithTheirTypesLabelsAndBucketsFromTheStart() {
    PrometheusScrape scrape = PrometheusScrape.parse(metrics.scrape());

    java.util.Map<String, String> upstream = UPSTREAM.stream()
        .collect(Collectors.toMap(Family::name, Family::type));
    assertThat(scrape.types()).containsAllEntriesOf(upstream);
    assertThat(scrape.types().keySet()).as("families beyond upstream's are named as ours")
        .filteredOn(name -> !upstream.containsKey(name))
        .containsExactly("etcddruid_agent_snapshot_chain_gaps_total");
    for (Family family : UPSTREAM) {
      List<Sample> series = family.type().equals("histogram")
          ? scrape.samples(family.name() + "_count") : scrape.samples(family.name());
      assertThat(series).as(family.name()).hasSize(family.seriesAtStart());
      for (Sample sample : series) {
        assertThat(sample.labels().keySet()).as(family.name())
            .containsExactlyInAnyOrderElementsOf(family.labels());
        if (!family.name().startsWith("etcdbr_network_")) {
          assertThat(sample.value()).as(family.name()).isZero();
        }
      }
      if (family.type().equals("histogram")) {
        for (Sample count : series) {
          List<String> bounds = scrape.samples(family.name() + "_bucket").stream()
              .filter(b -> withoutLe(b).equals(count.labels()))
              .map(b -> b.labels().get("le")).toList();
          assertThat(bounds).as(family.name()).containsExactlyElementsOf(DEFAULT_BUCKETS);
          assertThat(scrape.value(family.name() + "_sum", count.labels())).isPresent();
        }
      }
    }
  }

  @Test
  void labelValuesAtStartAreUpstreams() {
    PrometheusScrape scrape = PrometheusScrape.parse(metrics.scrape());

    assertThat(labelValues(scrape, "etcdbr_snapshot_latest_revision", "kind"))
        .containsExactlyInAnyOrder("Full", "Incr", "Chunk");
    assertThat(labelValues(scrape, "etcdbr_snapshot_gc_total", "succeeded"))
        .containsExactlyInAnyOrder("true", "false");
    assertThat(labelValues(scrape, "etcdbr_restoration_duration_seconds_count", "restore"))
        .containsExactlyInAnyOrder("single_node", "single_member");
    assertThat(labelValues(scrape, "etcdbr_defragmentation_duration_seconds_count", "endpoint"))
        .containsExactly("");
    assertThat(labelValues(scrape, "etcdbr_snapshotter_failure", "error")).containsExactly("");
  }

  @Test
  void everyNameGardenersScrapeKeepsIsExposedByTheAgent() {
    try (AgentMetrics agent = new AgentMetrics(metrics)) {
      Set<String> names = PrometheusScrape.parse(agent.scrape()).samples().stream()
          .map(Sample::name).collect(Collectors.toSet());

      assertThat(names).containsAll(GARDENER_ALLOW_LIST);
    }
  }

  @Test
  void agentScrapeHasProcessAndJvmFamiliesAndNoFamilyTwice() {
    try (AgentMetrics agent = new AgentMetrics(metrics)) {
      PrometheusScrape scrape = PrometheusScrape.parse(agent.scrape());

      assertThat(scrape.types()).containsEntry("process_cpu_seconds_total", "counter")
          .containsEntry("process_resident_memory_bytes", "gauge")
          .containsEntry("process_start_time_seconds", "gauge")
          .containsEntry("process_open_fds", "gauge")
          .containsEntry("process_max_fds", "gauge")
          .containsEntry("jvm_memory_used_bytes", "gauge")
          .containsEntry("jvm_threads_live_threads", "gauge");
      Set<String> sampleNames = new HashSet<>();
      scrape.samples().forEach(s -> sampleNames.add(s.name()));
      assertThat(sampleNames).noneMatch(n -> n.startsWith("etcdbr_") && n.endsWith("_max"));
    }
  }

  @Test
  void snapshotsGarbageCollectionAndFailuresAreCounted() {
    SnapshotMetrics listener = new SnapshotMetrics(metrics);
    Instant fullTime = Instant.parse("2026-12-01T10:00:00Z");
    Snapshot full = Snapshot.full(0, 100, fullTime, Snapshot.Compression.NONE, false);
    Snapshot delta = Snapshot.delta(101, 150, fullTime.plusSeconds(60),
        Snapshot.Compression.NONE);

    listener.timed(Snapshot.Kind.FULL, true, Duration.ofMillis(300));
    listener.written(full);
    listener.eventsBuffered();
    PrometheusScrape buffered = PrometheusScrape.parse(metrics.scrape());
    listener.timed(Snapshot.Kind.INCR, true, Duration.ofMillis(20));
    listener.written(delta);
    listener.collected(full, null);
    listener.collected(delta, new IOException("store unreachable"));
    listener.abandonedUploadsCollected(2);
    listener.failed(Snapshot.Kind.FULL, new IOException("boom"));
    PrometheusScrape scrape = PrometheusScrape.parse(metrics.scrape());

    assertThat(buffered.value("etcdbr_snapshot_required", Map.of("kind", "Full"))).hasValue(1.0);
    assertThat(buffered.value("etcdbr_snapshot_required", Map.of("kind", "Incr"))).hasValue(1.0);
    assertThat(scrape.value("etcdbr_snapshot_required", Map.of("kind", "Incr"))).hasValue(0.0);
    assertThat(scrape.value("etcdbr_snapshot_required", Map.of("kind", "Full"))).hasValue(1.0);
    assertThat(scrape.value("etcdbr_snapshot_latest_revision", Map.of("kind", "Full")))
        .hasValue(100.0);
    assertThat(scrape.value("etcdbr_snapshot_latest_revision", Map.of("kind", "Incr")))
        .hasValue(150.0);
    assertThat(scrape.value("etcdbr_snapshot_latest_timestamp", Map.of("kind", "Incr")))
        .hasValue((double) fullTime.plusSeconds(60).getEpochSecond());
    assertThat(scrape.value("etcdbr_snapstore_latest_deltas_total", Map.of())).hasValue(1.0);
    assertThat(scrape.value("etcdbr_snapstore_latest_deltas_revisions_total", Map.of()))
        .hasValue(49.0);
    Map<String, String> fullOk = Map.of("kind", "Full", "succeeded", "true");
    assertThat(scrape.value("etcdbr_snapshot_duration_seconds_count", fullOk)).hasValue(1.0);
    assertThat(scrape.value("etcdbr_snapshot_duration_seconds_bucket", with(fullOk, "le", "0.25")))
        .hasValue(0.0);
    assertThat(scrape.value("etcdbr_snapshot_duration_seconds_bucket", with(fullOk, "le", "0.5")))
        .hasValue(1.0);
    assertThat(scrape.value("etcdbr_snapshot_duration_seconds_sum", fullOk)).hasValue(0.3);
    assertThat(scrape.value("etcdbr_snapshot_gc_total", Map.of("kind", "Full", "succeeded",
        "true"))).hasValue(1.0);
    assertThat(scrape.value("etcdbr_snapshot_gc_total", Map.of("kind", "Incr", "succeeded",
        "false"))).hasValue(1.0);
    assertThat(scrape.value("etcdbr_snapshot_gc_total", Map.of("kind", "Chunk", "succeeded",
        "true"))).hasValue(2.0);
    assertThat(scrape.value("etcdbr_snapshotter_failure", Map.of("error", "boom")))
        .hasValue(1.0);
    assertThat(scrape.value("etcdbr_snapshotter_failure", Map.of("error", "store unreachable")))
        .hasValue(1.0);
  }

  @Test
  void resumingFromTheStoreSetsTimestampsAndDeltaTotals() {
    Instant t = Instant.parse("2026-12-01T10:00:00Z");
    Snapshot full = Snapshot.full(0, 100, t, Snapshot.Compression.NONE, false);
    List<Snapshot> deltas = List.of(
        Snapshot.delta(101, 120, t.plusSeconds(10), Snapshot.Compression.NONE),
        Snapshot.delta(121, 180, t.plusSeconds(20), Snapshot.Compression.NONE));

    metrics.storeResumed(full, deltas);
    PrometheusScrape scrape = PrometheusScrape.parse(metrics.scrape());

    assertThat(scrape.value("etcdbr_snapshot_latest_timestamp", Map.of("kind", "Full")))
        .hasValue((double) t.getEpochSecond());
    assertThat(scrape.value("etcdbr_snapshot_latest_timestamp", Map.of("kind", "Incr")))
        .hasValue((double) t.plusSeconds(20).getEpochSecond());
    assertThat(scrape.value("etcdbr_snapshot_latest_revision", Map.of("kind", "Incr")))
        .hasValue(180.0);
    assertThat(scrape.value("etcdbr_snapstore_latest_deltas_total", Map.of())).hasValue(2.0);
    assertThat(scrape.value("etcdbr_snapshot_required", Map.of("kind", "Full"))).hasValue(1.0);
    assertThat(scrape.value("etcdbr_snapstore_latest_deltas_revisions_total", Map.of()))
        .hasValue(79.0);
  }

  @Test
  void membershipInitialisationAndDefragmentationAreTimed() throws Exception {
    metrics.clusterSize(3);
    metrics.validated(true, Duration.ofMillis(40));
    metrics.restored(RestoreKind.SINGLE_MEMBER, true, Duration.ofSeconds(3));
    BackupRestoreMetrics.timed(metrics::learnerAdded, () -> null);
    PrometheusScrape asLearner = PrometheusScrape.parse(metrics.scrape());
    BackupRestoreMetrics.timed(metrics::memberPromoted, () -> null);
    metrics.learner(false);
    try {
      BackupRestoreMetrics.timed(metrics::memberRemoved, () -> {
        throw new IOException("refused");
      });
    } catch (IOException expected) {
      // counted as a failed removal
    }
    metrics.defragmented("http://10.0.0.1:2379", true, Duration.ofSeconds(12));
    PrometheusScrape scrape = PrometheusScrape.parse(metrics.scrape());

    assertThat(scrape.value("etcdbr_cluster_size", Map.of())).hasValue(3.0);
    assertThat(asLearner.value("etcdbr_is_learner", Map.of())).hasValue(1.0);
    assertThat(scrape.value("etcdbr_is_learner", Map.of())).hasValue(0.0);
    assertThat(scrape.value("etcdbr_is_learner_count_total", Map.of("succeeded", "true")))
        .hasValue(1.0);
    assertThat(scrape.value("etcdbr_validation_duration_seconds_count",
        Map.of("succeeded", "true"))).hasValue(1.0);
    assertThat(scrape.value("etcdbr_restoration_duration_seconds_count",
        Map.of("restore", "single_member", "succeeded", "true"))).hasValue(1.0);
    assertThat(scrape.value("etcdbr_add_learner_duration_seconds_count",
        Map.of("succeeded", "true"))).hasValue(1.0);
    assertThat(scrape.value("etcdbr_member_promote_duration_seconds_count",
        Map.of("succeeded", "true"))).hasValue(1.0);
    assertThat(scrape.value("etcdbr_member_remove_duration_seconds_count",
        Map.of("succeeded", "false"))).hasValue(1.0);
    Map<String, String> defrag = Map.of("endpoint", "http://10.0.0.1:2379", "succeeded", "true");
    assertThat(scrape.value("etcdbr_defragmentation_duration_seconds_bucket",
        with(defrag, "le", "10"))).hasValue(0.0);
    assertThat(scrape.value("etcdbr_defragmentation_duration_seconds_bucket",
        with(defrag, "le", "+Inf"))).hasValue(1.0);
  }

  @Test
  void valuesAreSpeltAsGoSpellsThem() {
    assertThat(PrometheusText.formatValue(1)).isEqualTo("1");
    assertThat(PrometheusText.formatValue(0.005)).isEqualTo("0.005");
    assertThat(PrometheusText.formatValue(2.5)).isEqualTo("2.5");
    assertThat(PrometheusText.formatValue(123456)).isEqualTo("123456");
    assertThat(PrometheusText.formatValue(1_000_000)).isEqualTo("1e+06");
    assertThat(PrometheusText.formatValue(1_764_583_200)).isEqualTo("1.7645832e+09");
    assertThat(PrometheusText.formatValue(0.00001)).isEqualTo("1e-05");
    assertThat(PrometheusText.formatValue(Double.NaN)).isEqualTo("NaN");
  }

  private static Set<String> labelValues(PrometheusScrape scrape, String name, String label) {
    return scrape.samples(name).stream().map(s -> s.labels().get(label))
        .collect(Collectors.toSet());
  }

  private static Map<String, String> withoutLe(Sample bucket) {
    Map<String, String> labels = new java.util.TreeMap<>(bucket.labels());
    labels.remove("le");
    return labels;
  }

  private static Map<String, String> with(Map<String, String> labels, String name,
      String value) {
    Map<String, String> all = new java.util.TreeMap<>(labels);
    all.put(name, value);
    return all;
  }
}
