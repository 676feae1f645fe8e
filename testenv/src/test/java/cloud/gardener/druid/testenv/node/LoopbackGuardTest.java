package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LoopbackGuardTest {

  @Test
  void loopbackAddressesAndVersionsPass() {
    assertThat(LoopbackGuard.firstNonLoopback("http://127.10.0.3:2380,https://[::1]:2379"))
        .isEmpty();
    assertThat(LoopbackGuard.firstNonLoopback("quay.io/coreos/etcd:v3.6.16 1.2.3")).isEmpty();
  }

  @Test
  void anyOtherAddressLiteralIsFound() {
    assertThat(LoopbackGuard.firstNonLoopback("--listen=0.0.0.0:2379")).contains("0.0.0.0");
    assertThat(LoopbackGuard.firstNonLoopback("http://10.0.0.1:443")).contains("10.0.0.1");
    assertThat(LoopbackGuard.firstNonLoopback("http://[fd00::1]:80")).contains("fd00::1");
  }

  @Test
  void theDescriptionNamesWhereTheAddressIs() {
    assertThat(LoopbackGuard.describeFirst(Map.of("container c env PEER", "192.168.1.2")))
        .hasValueSatisfying(m -> assertThat(m).contains("192.168.1.2", "container c env PEER"));
  }
}
