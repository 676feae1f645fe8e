package cloud.gardener.druid.operator.agent;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.operator.agent.AgentReport;
import org.junit.jupiter.api.Test;

/** The agent's {@code /member/status} body as the operator reads it, restore included. */
class HttpAgentClientReportTest {

  @Test
  void aMemberRestoringBeforeEtcdRunsHasNoViewButSaysHowFar() throws Exception {
    AgentReport r = HttpAgentClient.parseReport("""
        {"name": "etcd-main-0", "initialization": "Progress", "initializationError": "",
         "restore": {"phase": "DOWNLOAD", "done": 10, "total": 20,
                     "description": "restoring: full snapshot F: 10 B of 20 B read"},
         "etcd": null}""");
    assertThat(r.view()).isEmpty();
    assertThat(r.restoring()).contains("restoring: full snapshot F: 10 B of 20 B read");
  }

  @Test
  void aFinishedRestoreOrAFailedInitialisationIsNotReportedAsRestoring() throws Exception {
    AgentReport done = HttpAgentClient.parseReport("""
        {"initialization": "Successful",
         "restore": {"phase": "DONE", "done": 0, "total": 0, "description": "restored up to r"},
         "etcd": {"id": "a1", "clusterId": "c1", "role": "Leader", "leaderId": "a1",
                  "raftIndex": 7},
         "members": [{"id": "a1", "name": "etcd-main-0", "learner": false}]}""");
    assertThat(done.restoring()).isEmpty();
    assertThat(done.view()).hasValueSatisfying(v -> assertThat(v.isLeader()).isTrue());
    AgentReport failed = HttpAgentClient.parseReport("""
        {"initialization": "Failed", "initializationError": "store unreachable",
         "restore": {"phase": "DOWNLOAD", "done": 1, "total": 20, "description": "restoring: x"}}
        """);
    assertThat(failed.restoring()).isEmpty();
  }
}
