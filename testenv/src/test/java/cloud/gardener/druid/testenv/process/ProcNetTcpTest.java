package cloud.gardener.druid.testenv.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcNetTcpTest {

  @Test
  void parsesIpv4AndIpv6Lines() {
    ProcNetTcp.Socket v4 = ProcNetTcp.parse("   0: 020A0A7F:0950 0100007F:D431 01 00000000:00000000"
        + " 00:00000000 00000000     0        0 12345 1 0000000000000000 20 4 30 10 -1");
    assertThat(v4.local()).isEqualTo("127.10.10.2:2384");
    assertThat(v4.remote()).isEqualTo("127.0.0.1:54321");
    assertThat(v4.inode()).isEqualTo(12345);
    assertThat(v4.isLoopbackOnly()).isTrue();

    ProcNetTcp.Socket v6 = ProcNetTcp.parse("   0: 00000000000000000000000001000000:0050"
        + " 0000000000000000FFFF00000100000A:01BB 01 00000000:00000000 00:00000000 00000000"
        + "     0        0 777 1 0000000000000000 20 4 30 10 -1");
    assertThat(v6.local()).isEqualTo("0:0:0:0:0:0:0:1:80");
    assertThat(v6.remote()).isEqualTo("10.0.0.1:443");
    assertThat(v6.isLoopbackOnly()).isFalse();
  }
}
