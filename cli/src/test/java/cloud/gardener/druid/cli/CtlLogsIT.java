package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl druid logs} reads pods/log through the real API server. The node simulator
 * serves no kubelet API, so this test registers a Node of its own whose kubelet endpoint is a
 * small HTTPS server in the test (the API server does not verify kubelet certificates unless
 * told to) answering {@code /containerLogs/<ns>/<pod>/<container>}.
 */
@LocalKubernetes
class CtlLogsIT {

  static final String NODE = "druid-cli-logs-node";
  static HttpsServer kubelet;
  static Kubectl kubectl;
  static final List<String> requests = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start(LocalCluster cluster, TestNamespace ns, @TempDir Path dir) throws Exception {
    try (KubernetesClient admin = cluster.newClient(null)) {
      CrdInstaller.install(admin, "druid-cli-tests");
      kubelet = fakeKubelet(dir);
      Node node = admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE)
          .endMetadata().build()).createOr(existing -> existing.update());
      node.setStatus(new io.fabric8.kubernetes.api.model.NodeStatusBuilder()
          .addNewAddress().withType("InternalIP").withAddress("127.0.0.1").endAddress()
          .withNewDaemonEndpoints().withNewKubeletEndpoint()
          .withPort(kubelet.getAddress().getPort()).endKubeletEndpoint().endDaemonEndpoints()
          .build());
      admin.nodes().resource(node).updateStatus();
    }
    kubectl = new Kubectl(cluster.kubeconfig(), ns.name());
  }

  /** No kubelet confirms the pods' deletion on the test's node: they are removed at once. */
  @AfterAll
  static void stop(LocalCluster cluster, TestNamespace ns) {
    if (kubelet != null) {
      kubelet.stop(0);
    }
    try (KubernetesClient admin = cluster.newClient(null)) {
      admin.pods().inNamespace(ns.name()).withGracePeriod(0).delete();
      admin.nodes().withName(NODE).delete();
    }
  }

  private static HttpsServer fakeKubelet(Path dir) throws Exception {
    Path keystore = dir.resolve("kubelet.p12");
    Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin",
        "keytool").toString(), "-genkeypair", "-alias", "kubelet", "-keyalg", "EC",
        "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-validity", "1",
        "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", "changeit",
        "-keypass", "changeit").inheritIO().start();
    assertThat(keytool.waitFor()).isZero();
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = new FileInputStream(keystore.toFile())) {
      ks.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, "changeit".toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);
    HttpsServer server = HttpsServer.create(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.createContext("/containerLogs/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      requests.add(path + "?" + exchange.getRequestURI().getQuery());
      String pod = path.split("/")[3];
      byte[] body = ("{\"level\":\"info\",\"msg\":\"line 1 of " + pod + "\"}\n"
          + "{\"level\":\"info\",\"msg\":\"line 2 of " + pod + "\"}\n")
          .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    return server;
  }

  private static void memberPod(KubernetesClient client, String name) {
    Pod pod = new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withNodeName(NODE).addNewContainer().withName("etcd")
        .withImage("europe-docker.pkg.dev/gardener-project/public/gardener/etcd-druid-jvm:test")
        .endContainer().endSpec().build();
    client.resource(pod).create();
  }

  @Test
  void logsReadsEachMembersLogThroughTheApiServer(KubernetesClient client) {
    CtlCommandsIT.create(client, "logs-a", null);
    for (int i = 0; i < 3; i++) {
      memberPod(client, "logs-a-" + i);
    }

    Kubectl.Run one = kubectl.run("logs", "logs-a", "logs-a-1", "--tail", "5");
    assertThat(one.code()).as(one.err()).isZero();
    assertThat(one.out()).isEqualTo("{\"level\":\"info\",\"msg\":\"line 1 of logs-a-1\"}\n"
        + "{\"level\":\"info\",\"msg\":\"line 2 of logs-a-1\"}\n");
    assertThat(requests).anyMatch(r -> r.contains("/logs-a-1/etcd") && r.contains("tailLines=5"));

    Kubectl.Run all = kubectl.run("logs", "logs-a");
    assertThat(all.code()).isZero();
    assertThat(all.out()).contains("[logs-a-0] {\"level\"", "[logs-a-2] {\"level\":\"info\","
        + "\"msg\":\"line 2 of logs-a-2\"}");

    assertThat(kubectl.run("logs", "logs-a", "logs-a-7").code())
        .isEqualTo(ExitCodes.NOT_FOUND);
  }
}
