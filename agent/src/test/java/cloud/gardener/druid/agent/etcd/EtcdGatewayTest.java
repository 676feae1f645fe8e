package cloud.gardener.druid.agent.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading etcd's gateway JSON, where 64-bit integers are decimal strings. */
class EtcdGatewayTest {

  /** A status answer of etcd 3.6.16, as `curl -X POST …/v3/maintenance/status` printed it. */
  static final String STATUS = "{\"header\":{\"cluster_id\":\"15118495548433857066\","
      + " \"member_id\":\"13668033151171901709\", \"revision\":\"29\", \"raft_term\":\"2\"},"
      + " \"version\":\"3.6.16\", \"dbSize\":\"17375232\", \"dbSizeInUse\":\"16338944\"}";

  @Test
  void aMemberIdAboveTheSignedRangeIsReadWithAllItsBitsAsJetcdHoldsIt() {
    long id = EtcdGateway.longField(STATUS, "header", "member_id");
    assertThat(Long.toUnsignedString(id)).isEqualTo("13668033151171901709");
    assertThat(id).as("jetcd's long of that member id").isNegative();
  }

  @Test
  void sizesAndRevisionsAreReadAndMissingFieldsAreZero() {
    assertThat(EtcdGateway.longField(STATUS, "header", "revision")).isEqualTo(29);
    assertThat(EtcdGateway.longField(STATUS, "dbSize")).isEqualTo(17_375_232L);
    assertThat(EtcdGateway.longField(STATUS, "dbSizeInUse")).isEqualTo(16_338_944L);
    assertThat(EtcdGateway.longField(STATUS, "raftAppliedIndex")).isZero();
    assertThat(EtcdGateway.longField("{\"dbSize\":\"not a number\"}", "dbSize")).isZero();
    assertThat(EtcdGateway.longField(null, "dbSize")).isZero();
  }

  /**
   * An alarm answer of etcd 3.6.16 (curl of …/v3/maintenance/alarm {"action":"GET"}), a
   * CORRUPT alarm jetcd 0.8.5 would read as UNRECOGNIZED; 3.5's names member 0, which the
   * gateway leaves out.
   */
  @Test
  void alarmsAreReadByEtcdsNamesAndDisarmedWithAllTheIdsBits() throws Exception {
    String body = "{\"header\":{\"cluster_id\":\"13839379991738455200\"}, \"alarms\":["
        + "{\"memberID\":\"13668033151171901709\", \"alarm\":\"CORRUPT\"},"
        + " {\"alarm\":\"CORRUPT\"}]}";
    List<EtcdAlarm> alarms = EtcdGateway.alarms(body);
    assertThat(alarms).containsExactly(new EtcdAlarm(Long.parseUnsignedLong(
        "13668033151171901709"), "CORRUPT"), new EtcdAlarm(0, "CORRUPT"));
    assertThat(EtcdGateway.deactivate(alarms.get(0))).isEqualTo("{\"action\":\"DEACTIVATE\","
        + "\"memberID\":\"13668033151171901709\",\"alarm\":\"CORRUPT\"}");
    assertThat(EtcdGateway.alarms("{\"header\":{}}")).isEmpty();
  }
}
