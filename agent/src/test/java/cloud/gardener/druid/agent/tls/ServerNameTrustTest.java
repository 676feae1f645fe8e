package cloud.gardener.druid.agent.tls;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerNameTrustTest {

  @Test
  void aWildcardCoversExactlyOneLeftMostLabel() {
    assertThat(ServerNameTrust.matches("*.main-peer.ns.svc", "main-0.main-peer.ns.svc"))
        .isTrue();
    assertThat(ServerNameTrust.matches("*.main-peer.ns.svc", "main-peer.ns.svc")).isFalse();
    assertThat(ServerNameTrust.matches("*.main-peer.ns.svc", "a.main-0.main-peer.ns.svc"))
        .isFalse();
    assertThat(ServerNameTrust.matches("*.main-peer.ns.svc", "main-0.main-peer.other.svc"))
        .isFalse();
  }

  @Test
  void anExactNameMatchesWithoutRegardToCase() {
    assertThat(ServerNameTrust.matches("main-local", "main-local")).isTrue();
    assertThat(ServerNameTrust.matches("Main-Local", "main-local")).isTrue();
    assertThat(ServerNameTrust.matches("main-local", "main-local.ns")).isFalse();
  }
}
