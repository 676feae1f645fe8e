package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.ClientService;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;

/** The client Service (load-balanced over ready members) and the headless peer Service. */
public final class ServiceBuilder {

  private ServiceBuilder() {
  }

  public static Service client(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    ClientService cs = EtcdDefaults.etcd(etcd).getClientService();
    int clientPort = EtcdDefaults.clientPort(etcd);
    return new io.fabric8.kubernetes.api.model.ServiceBuilder()
        .withNewMetadata().withName(names.clientService()).withNamespace(names.namespace())
          .withLabels(EtcdLabels.merge(cs == null ? null : cs.getLabels(), EtcdLabels.managed(etcd)))
          .withAnnotations(cs == null ? null : cs.getAnnotations())
          .withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withNewSpec()
          .withType("ClusterIP")
          .withSelector(EtcdLabels.memberSelector(etcd))
          .withTrafficDistribution(cs == null ? null : cs.getTrafficDistribution())
          .withPorts(
              port("client", clientPort),
              port("server", EtcdDefaults.peerPort(etcd)),
              port("backuprestore", EtcdDefaults.agentPort(etcd)))
        .endSpec()
        .build();
  }

  public static Service peer(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    return new io.fabric8.kubernetes.api.model.ServiceBuilder()
        .withNewMetadata().withName(names.peerService()).withNamespace(names.namespace())
          .withLabels(EtcdLabels.managed(etcd)).withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withNewSpec()
          .withClusterIP("None")
          .withPublishNotReadyAddresses(true)
          .withSelector(EtcdLabels.memberSelector(etcd))
          .withPorts(port("peer", EtcdDefaults.peerPort(etcd)))
        .endSpec()
        .build();
  }

  private static io.fabric8.kubernetes.api.model.ServicePort port(String name, int port) {
    return new ServicePortBuilder().withName(name).withProtocol("TCP").withPort(port)
        .withTargetPort(new IntOrString(port)).build();
  }
}
