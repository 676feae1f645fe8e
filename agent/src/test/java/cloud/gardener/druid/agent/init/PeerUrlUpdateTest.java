package cloud.gardener.druid.agent.init;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.cluster.Member;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeerUrlUpdateTest {

  private static final URI HTTPS = URI.create("https://e-1.e-peer.ns.svc:2380");
  private static final URI HTTP = URI.create("http://e-1.e-peer.ns.svc:2380");

  private static Member member(long id, String name, URI... peerUrls) {
    var builder = io.etcd.jetcd.api.Member.newBuilder().setID(id).setName(name);
    for (URI url : peerUrls) {
      builder.addPeerURLs(url.toString());
    }
    return new Member(builder.build());
  }

  @Test
  void aMemberRegisteredWithTheOldSchemeIsStale() {
    List<Member> members = List.of(member(1, "e-0", URI.create("http://e-0.e-peer.ns.svc:2380")),
        member(2, "e-1", HTTP));
    assertThat(PeerUrlUpdate.staleRegistration(members, "e-1", HTTPS)).contains(2L);
  }

  @Test
  void aMatchingRegistrationNeedsNothing() {
    assertThat(PeerUrlUpdate.staleRegistration(List.of(member(2, "e-1", HTTPS)), "e-1", HTTPS))
        .isEmpty();
  }

  @Test
  void extraRegisteredUrlsAreStaleToo() {
    assertThat(PeerUrlUpdate.staleRegistration(List.of(member(2, "e-1", HTTPS, HTTP)), "e-1",
        HTTPS)).contains(2L);
  }

  @Test
  void anUnregisteredOrUnstartedMemberIsLeftToTheJoin() {
    assertThat(PeerUrlUpdate.staleRegistration(List.of(member(3, "", HTTP)), "e-1", HTTPS))
        .isEmpty();
  }

  /** additionalAdvertisePeerURLs: the registration holds the pod's URL and the additional ones. */
  @Test
  void additionalUrlsAreRegisteredBesideTheOwnInAnyOrder() {
    URI extra = URI.create("https://e-1.e-peer.ns.svc.cluster.local:2380");
    assertThat(PeerUrlUpdate.staleRegistration(List.of(member(2, "e-1", HTTPS)), "e-1",
        List.of(HTTPS, extra))).contains(2L);
    assertThat(PeerUrlUpdate.staleRegistration(List.of(member(2, "e-1", extra, HTTPS)), "e-1",
        List.of(HTTPS, extra))).isEmpty();
  }
}
