package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.testenv.TestPods;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/** The etcd image runs the built etcd, which resolves its peer DNS name through the hosts file. */
@LocalKubernetes
class EtcdPodIT {

  @Test
  void etcdImageRunsTheBuiltEtcdOnItsPodAddressWithDnsPeerUrls(KubernetesClient client,
      TestNamespace ns) {
    String self = "etcd-0.etcd-peer." + ns.name() + ".svc";
    client.pods().resource(new PodBuilder()
        .withNewMetadata().withName("etcd-0").endMetadata()
        .withNewSpec().withHostname("etcd-0").withSubdomain("etcd-peer")
        .withTerminationGracePeriodSeconds(10L)
        .addNewVolume().withName("data").withNewEmptyDir().endEmptyDir().endVolume()
        .addNewContainer().withName("etcd").withImage("quay.io/coreos/etcd:v3.6.16")
        .addNewEnv().withName("POD_IP").withNewValueFrom().withNewFieldRef()
        .withFieldPath("status.podIP").endFieldRef().endValueFrom().endEnv()
        .withArgs("--name=etcd-0", "--data-dir=/var/etcd/data",
            "--listen-client-urls=http://$(POD_IP):2379",
            "--advertise-client-urls=http://" + self + ":2379",
            "--listen-peer-urls=http://$(POD_IP):2380",
            "--initial-advertise-peer-urls=http://" + self + ":2380",
            "--initial-cluster=etcd-0=http://" + self + ":2380",
            "--listen-metrics-urls=http://$(POD_IP):2381",
            "--unsafe-no-fsync=true")
        .addNewVolumeMount().withName("data").withMountPath("/var/etcd/data").endVolumeMount()
        .withNewReadinessProbe().withNewHttpGet().withPath("/health").withNewPort(2381)
        .endHttpGet().withPeriodSeconds(1).endReadinessProbe()
        .endContainer().endSpec().build()).create();

    Pod etcd = TestPods.awaitReady(client, "etcd-0");

    assertThat(etcd.getStatus().getPodIP()).startsWith("127.");
  }
}
