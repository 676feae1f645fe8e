package cloud.gardener.druid.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExistingClusterTest {

  @Test
  void absentMeansNoJoin() {
    assertThat(ExistingCluster.parse(null, null).joins()).isFalse();
  }

  @Test
  void aNameRepeatedCarriesEachOfItsPeerUrls() {
    ExistingCluster c = ExistingCluster.parse(
        "src-0=https://a:2380,src-0=https://10.0.0.1:2380,src-1=https://b:2380",
        "https://client:2379,https://b:2379");
    assertThat(c.joins()).isTrue();
    assertThat(c.members().get("src-0"))
        .containsExactly(URI.create("https://a:2380"), URI.create("https://10.0.0.1:2380"));
    assertThat(c.members().get("src-1")).containsExactly(URI.create("https://b:2380"));
    assertThat(c.clientEndpoints()).containsExactly(URI.create("https://client:2379"),
        URI.create("https://b:2379"));
  }

  @Test
  void refusesHalfAConfigurationAndUrlsThatAreNotHttp() {
    assertThatThrownBy(() -> ExistingCluster.parse("src-0=http://a:2380", null))
        .hasMessageContaining("go together");
    assertThatThrownBy(() -> ExistingCluster.parse("src-0=file:///etc", "http://a:2379"))
        .hasMessageContaining("--existing-cluster-members");
    assertThatThrownBy(() -> ExistingCluster.parse("src-0", "http://a:2379"))
        .hasMessageContaining("NAME=PEER_URL");
    assertThatThrownBy(() -> ExistingCluster.parse("src-0=http://a:2380", "a:2379"))
        .hasMessageContaining("--existing-cluster-endpoints");
  }

  @Test
  void aMemberThatJoinsIsNeverASingleMember() {
    MemberConfig alone = new MemberConfig("t-0", "t", "ns", "127.0.0.1", "127.0.0.1", 2379,
        2380, java.util.Map.of("t-0", URI.create("http://127.0.0.1:2380")), "tok",
        java.nio.file.Path.of("/tmp/x"), java.util.Optional.empty(), java.util.Optional.empty());
    assertThat(alone.isSingleMember()).isTrue();
    MemberConfig joining = alone.withExistingCluster(
        ExistingCluster.parse("src-0=http://127.9.0.1:2380", "http://127.9.0.1:2379"));
    assertThat(joining.isSingleMember()).isFalse();
    assertThat(joining.otherClientUrls().values())
        .containsExactly(URI.create("http://127.9.0.1:2379"));
    assertThat(List.copyOf(alone.otherClientUrls().values())).isEmpty();
  }
}
