package cloud.gardener.druid.testenv.controlplane;

import java.nio.file.Path;
import java.util.List;

/** The command lines of etcd, kube-apiserver and kube-controller-manager. */
final class ControlPlaneFlags {

  /**
   * Controllers an operator of pods, PVCs, leases, services and PDBs relies on. No scheduler
   * and no kubelet: the node simulator plays those. No endpoints and endpointslice
   * controllers either: the API server rejects loopback endpoint addresses (every pod address
   * here), and the simulator resolves service names to pod addresses itself.
   */
  static final List<String> CONTROLLERS = List.of(
      "serviceaccount-controller",
      "root-ca-certificate-publisher-controller",
      "namespace-controller",
      "garbage-collector-controller",
      "disruption-controller",
      "deployment-controller",
      "replicaset-controller",
      "job-controller",
      "ttl-after-finished-controller",
      "persistentvolume-binder-controller",
      "persistentvolume-expander-controller",
      "persistentvolumeclaim-protection-controller",
      "persistentvolume-protection-controller");

  static final String SERVICE_CLUSTER_IP_RANGE = "10.0.0.0/16";

  private ControlPlaneFlags() {
  }

  static List<String> etcd(Path bin, Path dataDir, int clientPort, int peerPort) {
    String client = "http://127.0.0.1:" + clientPort;
    String peer = "http://127.0.0.1:" + peerPort;
    return List.of(bin.resolve("etcd").toString(),
        "--name=controlplane",
        "--data-dir=" + dataDir,
        "--listen-client-urls=" + client,
        "--advertise-client-urls=" + client,
        "--listen-peer-urls=" + peer,
        "--initial-advertise-peer-urls=" + peer,
        "--initial-cluster=controlplane=" + peer,
        "--initial-cluster-state=new",
        "--unsafe-no-fsync=true",
        "--log-level=warn");
  }

  static List<String> apiServer(Path bin, Credentials credentials, int etcdPort, int port) {
    return List.of(bin.resolve("kube-apiserver").toString(),
        "--etcd-servers=http://127.0.0.1:" + etcdPort,
        "--secure-port=" + port,
        "--bind-address=127.0.0.1",
        "--advertise-address=127.0.0.1",
        "--tls-cert-file=" + credentials.servingCert(),
        "--tls-private-key-file=" + credentials.servingKey(),
        "--authorization-mode=RBAC",
        "--token-auth-file=" + credentials.tokenFile(),
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
        "--service-account-key-file=" + credentials.serviceAccountPublicKey(),
        "--service-account-signing-key-file=" + credentials.serviceAccountKey(),
        "--service-cluster-ip-range=" + SERVICE_CLUSTER_IP_RANGE,
        "--enable-aggregator-routing=true",
        // the node's Hostname address would be looked up in the machine's resolver
        "--kubelet-preferred-address-types=InternalIP",
        "--kubelet-certificate-authority=" + credentials.kubelet().servingCert(),
        "--kubelet-client-certificate=" + credentials.kubelet().clientCert(),
        "--kubelet-client-key=" + credentials.kubelet().clientKey(),
        // the kubernetes Service's endpoint would be 127.0.0.1, which the API server rejects
        "--endpoint-reconciler-type=none",
        "--allow-privileged=true",
        "--enable-priority-and-fairness=false",
        "--profiling=false",
        "--v=0");
  }

  static List<String> controllerManager(Path bin, Credentials credentials, Path kubeconfig,
      int port, Path certDir) {
    return List.of(bin.resolve("kube-controller-manager").toString(),
        "--kubeconfig=" + kubeconfig,
        "--leader-elect=false",
        "--controllers=" + String.join(",", CONTROLLERS),
        "--service-account-private-key-file=" + credentials.serviceAccountKey(),
        "--root-ca-file=" + credentials.servingCert(),
        "--use-service-account-credentials=false",
        "--bind-address=127.0.0.1",
        "--secure-port=" + port,
        "--cert-dir=" + certDir,
        "--profiling=false",
        "--v=0");
  }
}
