package cloud.gardener.druid.operator.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.http.AgentHttpServer;
import cloud.gardener.druid.agent.http.ApiSettings;
import cloud.gardener.druid.agent.http.Backups;
import cloud.gardener.druid.agent.http.EtcdMember;
import cloud.gardener.druid.agent.http.Initialization;
import cloud.gardener.druid.agent.init.DataDirValidator.Mode;
import cloud.gardener.druid.agent.metrics.AgentMetrics;
import cloud.gardener.druid.agent.restore.RestoreProgress;
import cloud.gardener.druid.agent.snapshot.SnapshotScheduler;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.api.agent.AgentJson;
import cloud.gardener.druid.api.agent.ApiError;
import cloud.gardener.druid.api.agent.Defragmented;
import cloud.gardener.druid.api.agent.Health;
import cloud.gardener.druid.api.agent.InitStatus;
import cloud.gardener.druid.api.agent.LatestSnapshots;
import cloud.gardener.druid.api.agent.LeaderMoved;
import cloud.gardener.druid.api.agent.MemberPromoted;
import cloud.gardener.druid.api.agent.MemberRemoved;
import cloud.gardener.druid.api.agent.MemberReport;
import cloud.gardener.druid.api.agent.MemberStatus;
import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.api.agent.Compacted;
import cloud.gardener.druid.api.agent.AlarmsDisarmed;
import cloud.gardener.druid.api.agent.MemberStatus.Role;
import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.api.agent.NoDeltaSnapshot;
import cloud.gardener.druid.api.agent.Readiness;
import cloud.gardener.druid.api.agent.RestoreReport;
import cloud.gardener.druid.api.agent.SnapshotInfo;
import cloud.gardener.druid.api.agent.SnapshotProgress;
import cloud.gardener.druid.operator.agent.AgentReport;
import cloud.gardener.druid.operator.agent.AgentView;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent API's contract: each body as the agent writes it, read by the operator. The JSON
 * literals are the bodies agents wrote before the bodies were records (from maps), so an
 * older agent and a newer operator, or the reverse, understand each other during an upgrade.
 */
class AgentContractTest {

  private static final ObjectMapper TREE = new ObjectMapper();
  private static final MemberStatus LEADER = new MemberStatus("a1", "etcd-main-0", Role.Leader,
      "c1", 42, 7, 2, "a1", false, 20480, "3.5.21", "3.5.0", null, null);
  private static final MemberSpace SPACE = new MemberSpace(48L << 20, 16L << 20, 64L << 20,
      1L << 30, 900_000_000, 120_000_000, 12.5, 4096, 0, 300, List.of("NOSPACE"), 4242);
  private static final SnapshotInfo FULL = new SnapshotInfo("Full",
      "Full-00000000-00000042-1764590400.gz", 0, 42, "2026-12-01T12:00:00Z", true, false);

  static Stream<Arguments> bodies() {
    return Stream.of(
        Arguments.of(new MemberReport("etcd-main-0", "Successful", null, null, LEADER,
            List.of(new Membership("a1", "etcd-main-0", false)), null), """
            {"name": "etcd-main-0", "initialization": "Successful", "initializationError": null,
             "restore": null, "space": null,
             "etcd": {"id": "a1", "name": "etcd-main-0", "role": "Leader", "clusterId": "c1",
                      "revision": 42, "raftIndex": 7, "raftTerm": 2, "leaderId": "a1",
                      "learner": false, "dbSizeBytes": 20480, "etcdVersion": "3.5.21",
                      "clusterVersion": "3.5.0", "downgradeTarget": null,
                      "storageVersion": null},
             "members": [{"id": "a1", "name": "etcd-main-0", "learner": false}]}"""),
        Arguments.of(FULL, """
            {"kind": "Full", "name": "Full-00000000-00000042-1764590400.gz",
             "startRevision": 0, "endRevision": 42, "createdOn": "2026-12-01T12:00:00Z",
             "compressed": true, "isFinal": false}"""),
        Arguments.of(NoDeltaSnapshot.NO_EVENTS,
            "{\"message\": \"no events since the last delta snapshot\"}"),
        Arguments.of(new LatestSnapshots(null, List.of()),
            "{\"fullSnapshot\": null, \"deltaSnapshots\": []}"),
        Arguments.of(new SnapshotProgress(SnapshotProgress.FULL, 10, 20, "2026-12-01T12:00:00Z",
            true), """
            {"kind": "full", "bytesDone": 10, "bytesTotal": 20,
             "startedAt": "2026-12-01T12:00:00Z", "running": true}"""),
        Arguments.of(new LeaderMoved("a2"), "{\"leader\": \"a2\"}"),
        Arguments.of(new MemberPromoted("a2"), "{\"promoted\": \"a2\"}"),
        Arguments.of(new MemberRemoved("a2"), "{\"removed\": \"a2\"}"),
        Arguments.of(new Defragmented("etcd-main-0"), "{\"defragmented\": \"etcd-main-0\"}"),
        Arguments.of(new Health(true), "{\"health\": true}"),
        Arguments.of(SPACE, """
            {"dbSizeBytes": 50331648, "dbSizeInUseBytes": 16777216, "quotaBytes": 67108864,
             "volumeCapacityBytes": 1073741824, "volumeFreeBytes": 900000000,
             "dataDirBytes": 120000000, "writesPerSecond": 12.5,
             "dbGrowthBytesPerSecond": 4096.0, "inUseGrowthBytesPerSecond": 0.0,
             "windowSeconds": 300, "alarms": ["NOSPACE"], "revision": 4242}"""),
        Arguments.of(new MemberSpace(1, 1, 1, 1, 1, 1, 0, 0, 0, 0, List.of(), 7,
            List.of("CORRUPT")), """
            {"dbSizeBytes": 1, "dbSizeInUseBytes": 1, "quotaBytes": 1,
             "volumeCapacityBytes": 1, "volumeFreeBytes": 1, "dataDirBytes": 1,
             "writesPerSecond": 0.0, "dbGrowthBytesPerSecond": 0.0,
             "inUseGrowthBytesPerSecond": 0.0, "windowSeconds": 0, "alarms": [],
             "revision": 7, "unnamedAlarms": ["CORRUPT"]}"""),
        Arguments.of(new Compacted(4242), "{\"revision\": 4242}"),
        Arguments.of(new AlarmsDisarmed(List.of("NOSPACE on a1")),
            "{\"disarmed\": [\"NOSPACE on a1\"]}"),
        Arguments.of(new Readiness(false), "{\"ready\": false}"),
        Arguments.of(new ApiError("etcd is not running"), "{\"error\": \"etcd is not running\"}"));
  }

  @ParameterizedTest
  @MethodSource("bodies")
  void theWireFormatIsTheOneAgentsWroteBeforeAndReadsBackAsWritten(Object body,
      String before) throws Exception {
    String written = new String(AgentJson.write(body), StandardCharsets.UTF_8);
    assertThat(TREE.readTree(written)).isEqualTo(TREE.readTree(before));
    assertThat(AgentJson.read(before, body.getClass())).isEqualTo(body);
    assertThat(AgentJson.read(written, body.getClass())).isEqualTo(body);
  }

  @Test
  void theOperatorReadsTheMemberStatusIntoItsView() throws Exception {
    MemberStatus learner = new MemberStatus("b2", "etcd-main-1", Role.Member, "c1", 41, 6, 2,
        "a1", true, 20480, "3.5.21", "3.5.0", "3.4", "3.5.0");
    AgentReport report = HttpAgentClient.parseReport(json(new MemberReport("etcd-main-1",
        "Successful", null, null, learner, List.of(new Membership("a1", "etcd-main-0", false),
            new Membership("b2", "etcd-main-1", true)), null)));
    assertThat(report.restoring()).isEmpty();
    assertThat(report.view()).contains(new AgentView("b2", "c1", "Learner", "a1", 6, true,
        List.of(new Membership("a1", "etcd-main-0", false),
            new Membership("b2", "etcd-main-1", true)),
        new AgentView.EtcdVersions("3.5.21", "3.5.0", "3.4", "3.5.0")));

    AgentReport listless = HttpAgentClient.parseReport(json(new MemberReport("etcd-main-1",
        "Successful", null, null, learner, null, SPACE)));
    assertThat(listless.view().orElseThrow().members()).isEmpty();
    assertThat(listless.view().orElseThrow().space()).as("the member's space").contains(SPACE);
  }

  @Test
  void theOperatorReadsSnapshotsAndTheirProgress() throws Exception {
    assertThat(HttpAgentClient.revisionOf(HttpAgentClient.parse(json(FULL),
        SnapshotInfo.class))).isEqualTo(OptionalLong.of(42));
    assertThat(HttpAgentClient.revisionOf(HttpAgentClient.parse(
        json(NoDeltaSnapshot.NO_EVENTS), SnapshotInfo.class))).isEmpty();
    SnapshotProgress progress = new SnapshotProgress(SnapshotProgress.DELTA, 2048, 0,
        "2026-12-01T12:00:00Z", false);
    assertThat(HttpAgentClient.parseProgress(json(progress))).contains(progress);
    assertThat(HttpAgentClient.parseProgress(json(new SnapshotProgress("full", 1, 2, "soon",
        true)))).isEmpty();
  }

  @Test
  void anAgentServingItsApiIsReadByTheOperatorsClientWhileItRestores() throws Exception {
    RestoreProgress.View restoring = new RestoreProgress.View(RestoreProgress.Phase.DELTAS,
        "Full-00000000-00000042-1764590400.gz", 3, 40);
    try (AgentHttpServer agent = new AgentHttpServer(new ApiSettings("127.0.0.1", 0,
        Optional.empty(), Optional.empty(), "etcd-main-0", java.time.Duration.ofMinutes(15)),
        new AgentMetrics(),
        new Restoring(restoring), new NotRunning(), new NoStore())) {
      agent.start();
      AgentEndpoint endpoint = new AgentEndpoint("etcd-main-0", "127.0.0.1", agent.port(), false);
      HttpAgentClient operator = HttpAgentClient.plain();

      AgentReport report = operator.report(endpoint);
      assertThat(report.view()).isEmpty();
      assertThat(report.restoring()).contains(restoring.describe());
      assertThat(operator.snapshotProgress(endpoint)).isEmpty();
      assertThatThrownBy(() -> operator.fullSnapshot(endpoint, false))
          .isInstanceOf(AgentClient.AgentException.class)
          .hasMessageContaining("HTTP 503").hasMessageContaining("no backup store");
    }
  }

  @Test
  void aMemberWhoseDataEtcdRefusedIsReportedWithWhatEtcdFound() throws Exception {
    String found = "etcd's initial corruption check found this member's data differs from its"
        + " peers'";
    try (AgentHttpServer agent = new AgentHttpServer(new ApiSettings("127.0.0.1", 0,
        Optional.empty(), Optional.empty(), "etcd-main-0", java.time.Duration.ofMinutes(15)),
        new AgentMetrics(), new Restoring(new RestoreProgress.View(
            RestoreProgress.Phase.DELTAS, "Full-1", 0, 0)), new NotRunning(Optional.of(found)), new NoStore())) {
      agent.start();
      AgentReport report = HttpAgentClient.plain().report(
          new AgentEndpoint("etcd-main-0", "127.0.0.1", agent.port(), false));
      assertThat(report.view()).isEmpty();
      assertThat(report.corruption()).hasValue(found);
    }
  }

  @Test
  void aRestoreThatIsDoneIsNotReportedAsRestoring() throws Exception {
    AgentReport report = HttpAgentClient.parseReport(json(new MemberReport("etcd-main-0",
        "Progress", null, new RestoreReport(RestoreReport.DONE, 0, 0, "restored"), null,
        null, null)));
    assertThat(report.restoring()).isEmpty();
  }

  private static String json(Object body) throws Exception {
    return new String(AgentJson.write(body), StandardCharsets.UTF_8);
  }

  private record Restoring(RestoreProgress.View view) implements Initialization {
    @Override
    public InitStatus initStatus() {
      return InitStatus.Progress;
    }

    @Override
    public String initError() {
      return null;
    }

    @Override
    public Optional<RestoreProgress.View> restore() {
      return Optional.of(view);
    }

    @Override
    public void triggerInitialization(Optional<Mode> mode) {
    }
  }

  private record NotRunning(Optional<String> corruption) implements EtcdMember {
    NotRunning() {
      this(Optional.empty());
    }

    @Override
    public boolean etcdHealthy() {
      return false;
    }

    @Override
    public boolean etcdServesClients() {
      return false;
    }

    @Override
    public Optional<MemberClient> client() {
      return Optional.empty();
    }

    @Override
    public void moveLeader(long to) {
      throw new IllegalStateException("etcd is not running");
    }

    @Override
    public Optional<MemberSpace> space() {
      return Optional.empty();
    }

    @Override
    public void spaceChanged() {
    }

    @Override
    public Map<String, String> etcdConfig() {
      return Map.of();
    }
  }

  private static final class NoStore implements Backups {
    @Override
    public Optional<SnapshotScheduler> scheduler() {
      return Optional.empty();
    }

    @Override
    public Optional<SnapshotStore> store() {
      return Optional.empty();
    }
  }
}
