package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.ClientService;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What Prometheus needs to find the members, as upstream's users scrape them: Gardener's scrape
 * jobs discover the endpoints of the client Service and keep those whose pod carries the
 * Etcd's labels ({@code app}, {@code role}) and whose port is named {@code client} (etcd's
 * metrics) or {@code backuprestore} (the backup sidecar's); ServiceMonitors select the client
 * Service by its labels. Upstream sets no {@code prometheus.io/*} annotations, nor does this
 * operator.
 */
class ScrapeTargetsTest {

  private final OperatorSettings settings = OperatorSettings.defaults();

  @Test
  void clientServiceNamesThePortsGardenersScrapeJobsKeep() {
    Etcd etcd = gardenerLike();

    Service service = ServiceBuilder.client(etcd);

    assertThat(service.getSpec().getPorts()).extracting(ServicePort::getName)
        .contains("client", "backuprestore");
    assertThat(port(service, "client").getTargetPort().getIntVal())
        .isEqualTo(EtcdDefaults.clientPort(etcd));
    assertThat(port(service, "backuprestore").getTargetPort().getIntVal())
        .isEqualTo(EtcdDefaults.agentPort(etcd));
    assertThat(service.getSpec().getSelector())
        .isEqualTo(EtcdLabels.memberSelector(etcd));
  }

  @Test
  void membersServeBothTargetPortsAndCarryTheEtcdsLabels() {
    Etcd etcd = gardenerLike();

    Pod pod = MemberPodBuilder.build(etcd, settings, 0);

    assertThat(pod.getMetadata().getLabels()).containsEntry("app", "etcd-statefulset")
        .containsEntry("role", "main")
        .containsAllEntriesOf(ServiceBuilder.client(etcd).getSpec().getSelector());
    assertThat(pod.getSpec().getContainers()).flatExtracting(c -> c.getPorts())
        .extracting(ContainerPort::getContainerPort)
        .contains(EtcdDefaults.clientPort(etcd), EtcdDefaults.agentPort(etcd));
    assertThat(pod.getMetadata().getAnnotations()).doesNotContainKeys("prometheus.io/scrape",
        "prometheus.io/port");
  }

  @Test
  void serviceMonitorsSelectTheClientServiceByItsLabels() {
    Etcd etcd = gardenerLike();
    ClientService clientService = new ClientService();
    clientService.setLabels(Map.of("monitoring", "etcd"));
    clientService.setAnnotations(Map.of("team", "etcd"));
    etcd.getSpec().getEtcd().setClientService(clientService);

    Service service = ServiceBuilder.client(etcd);

    assertThat(service.getMetadata().getLabels()).containsEntry("monitoring", "etcd");
    assertThat(service.getMetadata().getAnnotations()).containsEntry("team", "etcd");
  }

  private static Etcd gardenerLike() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    etcd.getSpec().setLabels(Map.of("app", "etcd-statefulset", "role", "main"));
    return etcd;
  }

  private static ServicePort port(Service service, String name) {
    return service.getSpec().getPorts().stream().filter(p -> name.equals(p.getName()))
        .findFirst().orElseThrow();
  }
}
