package cloud.gardener.druid.agent.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EtcdOutputTest {

  // etcd 3.6.16's lines when its initial corruption check fails (fields shortened)
  private static final String LOG = """
      {"level":"info","msg":"starting initial corruption check","local-member-id":"a1"}
      {"level":"warn","msg":"found different hash values from remote peer","local-member-id":"a1","local-member-revision":2003,"local-member-compact-revision":-1,"local-member-hash":1,"remote-peer-id":"0","remote-peer-endpoints":["http://10.0.0.2:2380"],"remote-peer-hash":2}
      {"level":"error","msg":"checkInitialHashKV failed","error":"a1 found data inconsistency with peers"}
      """;

  @Test
  void copiesEveryLineAndKeepsWhatTheInitialCorruptionCheckFound() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EtcdOutput output = new EtcdOutput(
        new ByteArrayInputStream(LOG.getBytes(StandardCharsets.UTF_8)), out);
    output.run();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(LOG);
    assertThat(output.inconsistency()).hasValue("etcd's initial corruption check found this"
        + " member's data differs from its peers' (its key-value hash at revision 2003, the peer at"
        + " http://10.0.0.2:2380 has another); etcd refused to start and serves no client");
  }

  @Test
  void saysNothingWhenTheCheckPassed() {
    EtcdOutput output = new EtcdOutput(new ByteArrayInputStream(
        "{\"msg\":\"initial corruption checking passed; no corruption\"}\n"
            .getBytes(StandardCharsets.UTF_8)), new ByteArrayOutputStream());
    output.run();
    assertThat(output.inconsistency()).isEmpty();
  }
}
