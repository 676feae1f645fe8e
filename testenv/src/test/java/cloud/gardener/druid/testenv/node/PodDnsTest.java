package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PodDnsTest {

  private final Pod ready = pod("etcd-0", "u0");
  private final Pod notReady = pod("etcd-1", "u1");
  private final Map<String, String> ips = Map.of("u0", "127.10.0.1", "u1", "127.10.0.2");

  /** A name once served still resolves on this machine when its pod is gone, to nowhere. */
  @Test
  void goneNamesResolveToTheUnreachableAddressNotToTheMachinesResolver() {
    java.util.Set<String> known = new java.util.HashSet<>();
    List<String> first = PodDns.withGoneNames(List.of("127.10.0.1 a-0.a-peer.ns.svc",
        "127.10.0.2 a-1.a-peer.ns.svc"), known, "127.10.255.254");
    assertThat(first).containsExactly("127.10.0.1 a-0.a-peer.ns.svc",
        "127.10.0.2 a-1.a-peer.ns.svc");
    assertThat(PodDns.withGoneNames(List.of("127.10.0.1 a-0.a-peer.ns.svc"), known,
        "127.10.255.254")).containsExactly("127.10.0.1 a-0.a-peer.ns.svc",
            "127.10.255.254 a-1.a-peer.ns.svc");
    assertThat(PodDns.withGoneNames(List.of("127.10.0.1 a-0.a-peer.ns.svc",
        "127.10.0.3 a-1.a-peer.ns.svc"), known, "127.10.255.254"))
        .as("a new pod of the name takes it back").containsExactly(
            "127.10.0.1 a-0.a-peer.ns.svc", "127.10.0.3 a-1.a-peer.ns.svc");
  }

  /**
   * A pod bound here without an address yet, and a service without a ready endpoint, resolve
   * to nowhere on this machine instead of falling through to its resolver.
   */
  @Test
  void namesOfPodsWithoutAnAddressAndOfServicesWithoutEndpointsResolveToNowhere() {
    Pod starting = pod("etcd-2", "u2");
    Set<String> known = new java.util.HashSet<>(PodDns.ownedNames(List.of(ready, starting),
        List.of(service("etcd-client", false))));
    List<String> lines = PodDns.withGoneNames(PodDns.hostsLines(List.of(ready, starting),
        List.of(service("etcd-client", false)), ips, p -> false), known, "127.10.255.254");
    assertThat(lines).contains("127.10.0.1 etcd-0.etcd-peer.ns.svc",
        "127.10.255.254 etcd-2.etcd-peer.ns.svc",
        "127.10.255.254 etcd-2.etcd-peer.ns.svc.cluster.local",
        "127.10.255.254 etcd-client.ns.svc");
  }

  @Test
  void podNamesResolveToTheirAddressReadyOrNot() {
    List<String> lines = PodDns.hostsLines(List.of(ready, notReady), List.of(), ips, p -> false);

    assertThat(lines).contains("127.10.0.1 etcd-0.etcd-peer.ns.svc",
        "127.10.0.1 etcd-0.etcd-peer.ns.svc.cluster.local", "127.10.0.2 etcd-1.etcd-peer.ns.svc");
  }

  @Test
  void serviceNamesResolveToReadyPodsOnlyUnlessNotReadyAddressesArePublished() {
    Set<String> readyUids = Set.of("u0");
    List<String> lines = PodDns.hostsLines(List.of(ready, notReady),
        List.of(service("etcd-client", false), service("etcd-peer", true)), ips,
        p -> readyUids.contains(p.getMetadata().getUid()));

    assertThat(lines).contains("127.10.0.1 etcd-client.ns.svc", "127.10.0.1 etcd-peer.ns.svc",
        "127.10.0.2 etcd-peer.ns.svc").doesNotContain("127.10.0.2 etcd-client.ns.svc");
  }

  private static Pod pod(String name, String uid) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid(uid)
        .addToLabels("app", "etcd").endMetadata()
        .withNewSpec().withHostname(name).withSubdomain("etcd-peer").endSpec().build();
  }

  private static Service service(String name, boolean publishNotReady) {
    return new ServiceBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata()
        .withNewSpec().addToSelector("app", "etcd").withPublishNotReadyAddresses(publishNotReady)
        .endSpec().build();
  }
}
