package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.model.LocalStore;
import cloud.gardener.druid.operator.model.LocalStoreLayout;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ctl} command run as a person runs it, a process of the built jar or of the
 * installed {@code kubectl druid} plugin, against the local control plane and the node
 * simulator (member pods whose logs the kubelet API serves); the test writes the Etcds'
 * statuses itself, as the operator would. The examples of docs/cli.md are its golden text.
 */
@LocalKubernetes
class CtlProcessIT {

  static final String ETCD = "etcd-main";
  static DruidProcess druid;
  static List<String[]> shownAs;

  @BeforeAll
  static void setUp(LocalCluster cluster, TestNamespace ns, KubernetesClient client,
      @TempDir Path dir) throws Exception {
    try (KubernetesClient admin = cluster.newClient(null)) {
      CrdInstaller.install(admin, "druid-cli-tests");
    }
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, Files.readString(cluster.kubeconfig())
        .replace("namespace: default", "namespace: " + ns.name()));
    druid = DruidProcess.install(dir, kubeconfig);
    // the docs show the namespace of 'druid local up' and its store root, relative to the shell
    shownAs = List.of(new String[] {dir.toString() + "/", ""},
        new String[] {ns.name(), "default"});
    Etcd main = CtlCommandsIT.create(client, ETCD, Map.of("app", "demo"));
    CtlCommandsIT.writeStatus(client, ETCD, ready(main));
    CtlCommandsIT.create(client, "etcd-events", Map.of("app", "demo"));
    snapshots(dir, main, ns.name());
    memberPods(client);
    managedObjects(client);
  }

  /** What the operator would label as its own for etcd-main (list-resources shows them). */
  private static void managedObjects(KubernetesClient client) {
    Map<String, String> labels = Map.of(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE,
        Labels.PART_OF, ETCD);
    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata()
        .withName(ETCD + "-config").withLabels(labels).endMetadata()
        .addToData("etcd.conf.yaml", "name: etcd-config\n").build()).create();
    client.services().resource(new ServiceBuilder().withNewMetadata()
        .withName(ETCD + "-client").withLabels(labels).endMetadata().withNewSpec()
        .addNewPort().withPort(2379).endPort().endSpec().build()).create();
    client.pods().withName(ETCD + "-0").edit(p -> {
      p.getMetadata().setLabels(labels);
      return p;
    });
  }

  private static EtcdStatus ready(Etcd etcd) {
    EtcdStatus s = CtlCommandsIT.status(1, "True", "Succeeded");
    List<EtcdMemberStatus> members = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      EtcdMemberStatus m = new EtcdMemberStatus();
      m.setName(ETCD + "-" + i);
      m.setId(List.of("8e9e05c52164694d", "2f9f4a2e1c0d7b31", "b6a1c4d3e2f10a97").get(i));
      m.setRole(i == 1 ? "Leader" : "Member");
      m.setStatus("Ready");
      m.setMemberRevision("42");
      m.setVolumeRevision("1");
      m.setUpdated(true);
      m.setEtcdVersion("3.6.16");
      members.add(m);
    }
    s.setMembers(members);
    s.setReplicas(3);
    s.setReadyReplicas(3);
    s.setCurrentReplicas(3);
    s.setReady(true);
    s.setEtcdClusterVersion("3.6.0");
    CapacityStatus space = new CapacityStatus();
    space.setDbSize(new Quantity("21Mi"));
    space.setDbSizeInUse(new Quantity("9Mi"));
    space.setQuota(new Quantity("8Gi"));
    space.setVolumeSize(new Quantity("2Gi"));
    space.setVolumeFree(new Quantity("1900Mi"));
    space.setGrowthPerHour(new Quantity("12Mi"));
    space.setWritesPerSecond(25L);
    space.setTimeToQuota("14d");
    space.setTimeToVolumeFull("4d");
    s.setCapacity(space);
    return s;
  }

  private static void snapshots(Path dir, Etcd etcd, String namespace) throws Exception {
    var store = etcd.getSpec().getBackup().getStore();
    Path v2 = Files.createDirectories(Path.of(LocalStore.hostPath(
        dir.resolve(".druid-local/stores").toString(), LocalStoreLayout.PER_NAMESPACE, namespace,
        store)).resolve(store.getPrefix()).resolve("v2"));
    Files.write(v2.resolve("Full-00000000-00000040-1764547200.gz"), new byte[18_432]);
    Files.write(v2.resolve("Incr-00000041-00000042-1764547260.gz"), new byte[612]);
  }

  /** The members' pods: each prints two JSON lines as etcd does, then waits. */
  private static void memberPods(KubernetesClient client) {
    for (int i = 0; i < 3; i++) {
      String name = ETCD + "-" + i;
      MemberPods.start(client, name, "echo '{\"level\":\"info\",\"msg\":\"serving client"
          + " traffic\",\"member\":\"" + name + "\"}'; echo '{\"level\":\"info\",\"msg\":"
          + "\"ready to serve\",\"member\":\"" + name + "\"}'; exec sleep 600",
          "ready to serve");
    }
  }

  @Test
  void everyExampleInTheDocsPrintsWhatTheDocsShow() throws Exception {
    List<String> wrong = new ArrayList<>();
    List<Long> millis = new ArrayList<>();
    StringBuilder actual = new StringBuilder();
    List<DocExamples.Example> examples = DocExamples.of(
        DocsCommandsTest.repoRoot().resolve("docs/cli.md"));
    for (DocExamples.Example e : examples) {
      DruidProcess.Result r = druid.shell(e.words());
      millis.add(r.took().toMillis());
      actual.append("```bash\n").append(e.line()).append(r.code() == 0 ? "" : "   # exit "
          + r.code()).append("\n```\n\n```text\n").append(r.terminal()).append("```\n\n");
      if (r.code() != e.exit() || !GoldenText.words(r.terminal(), shownAs)
          .equals(GoldenText.words(e.output(), List.of()))) {
        wrong.add(e.line() + " exited " + r.code() + ":\n" + r.terminal());
      }
    }
    Files.writeString(Path.of("target/cli-examples.actual.md"), actual.toString());
    millis.sort(null);
    System.out.printf("CtlProcessIT: %d examples, each a process: median %d ms, max %d ms%n",
        millis.size(), millis.get(millis.size() / 2), millis.get(millis.size() - 1));
    assertThat(wrong).as("see target/cli-examples.actual.md").isEmpty();
    assertThat(examples).hasSizeGreaterThan(15);
  }

  @Test
  void objectOutputFormatsReachTheTerminalAsParseableDocuments() throws Exception {
    ObjectMapper json = new ObjectMapper();
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    DruidProcess.Result one = druid.kubectlDruid("status", ETCD, "-o", "json");
    assertThat(one.code()).as(one.err()).isZero();
    assertThat(json.readTree(one.out()).at("/status/readyReplicas").asInt()).isEqualTo(3);
    JsonNode list = yaml.readTree(druid.kubectlDruid("status", "-o", "yaml").out());
    assertThat(list.at("/kind").asText()).isEqualTo("List");
    assertThat(list.at("/items").size()).isEqualTo(2);
    assertThat(yaml.readTree(druid.kubectlDruid("status", ETCD, "-o", "yaml").out())
        .at("/metadata/name").asText()).isEqualTo(ETCD);
    assertThat(json.readTree(druid.kubectlDruid("status", "-A", "-l", "app=demo", "-o", "json")
        .out()).at("/items").size()).isEqualTo(2);
    String root = "--local-store-root=" + druid.workDir().resolve(".druid-local/stores");
    assertThat(json.readTree(druid.kubectlDruid("backups", ETCD, root, "-o", "json").out())
        .at("/items/1/endRevision").asLong()).isEqualTo(42);
    assertThat(yaml.readTree(druid.kubectlDruid("backups", ETCD, root, "-o", "yaml").out())
        .at("/items/0/kind").asText()).isEqualTo("Full");
  }

  @Test
  void druidCtlPrintsWhatKubectlDruidPrints() {
    for (List<String> args : List.of(List.of("status", "-l", "app=demo"),
        List.of("status", ETCD, "-o", "json"), List.of("logs", ETCD, ETCD + "-2"),
        List.of("status", "nope"))) {
      DruidProcess.Result plugin = druid.kubectlDruid(args.toArray(String[]::new));
      List<String> ctl = new ArrayList<>(List.of("ctl"));
      ctl.addAll(args);
      DruidProcess.Result direct = druid.druid(ctl.toArray(String[]::new));
      assertThat(direct.code()).as(args.toString()).isEqualTo(plugin.code());
      assertThat(GoldenText.words(direct.out(), List.of()))
          .isEqualTo(GoldenText.words(plugin.out(), List.of()));
      assertThat(direct.err()).isEqualTo(plugin.err());
      assertThat(plugin.code() == 0 ? plugin.out() : plugin.err()).as(args.toString())
          .isNotBlank();
    }
  }

  @Test
  void componentProtectionRemoveAndAddSetAndClearUpstreamsAnnotation(KubernetesClient client) {
    DruidProcess.Result removed = druid.kubectlDruid("component-protection", "remove",
        "etcd-events");
    assertThat(removed.code()).as(removed.err()).isZero();
    assertThat(annotations(client, "etcd-events"))
        .containsEntry("druid.gardener.cloud/disable-etcd-component-protection", "");
    DruidProcess.Result again = druid.druid("ctl", "component-protection", "remove",
        "etcd-events");
    assertThat(again.code()).isEqualTo(ExitCodes.REFUSED);
    DruidProcess.Result added = druid.kubectlDruid("component-protection", "add", "etcd-events");
    assertThat(added.code()).as(added.err()).isZero();
    assertThat(annotations(client, "etcd-events"))
        .doesNotContainKey("druid.gardener.cloud/disable-etcd-component-protection");
    JsonNode listed = readJson(druid.kubectlDruid("list-resources", ETCD, "--filter",
        "ConfigMap,Pod", "-o", "json").out());
    assertThat(listed.at("/items").size()).isEqualTo(2);
    assertThat(listed.at("/items/0/kind").asText()).isEqualTo("ConfigMap");
    assertThat(druid.kubectlDruid("list-resources", ETCD, "--filter", "Bogus").code())
        .isEqualTo(ExitCodes.USAGE);
    assertThat(druid.kubectlDruid("list-resources", "nope").code())
        .isEqualTo(ExitCodes.NOT_FOUND);
  }

  /**
   * The support bundle of etcd-events, whose store credentials the operator labelled as its
   * own: every value of the Secret (as written, and base64 as the API holds it; also inside
   * kubectl's last-applied annotation) appears nowhere in the archive, which still says the
   * Secret is there and how large each value is.
   */
  @Test
  void reportWritesOneArchiveWithoutAnySecretValue(KubernetesClient client) throws Exception {
    List<String> values = List.of("AKIAREPORTTESTKEY42", "s3cr3t/report+value=");
    client.secrets().resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
        .withNewMetadata().withName("etcd-events-backup").withLabels(Map.of(Labels.MANAGED_BY,
            Labels.MANAGED_BY_VALUE, Labels.PART_OF, "etcd-events"))
        .addToAnnotations("kubectl.kubernetes.io/last-applied-configuration",
            "{\"stringData\":{\"accessKeyID\":\"" + values.get(0) + "\"}}")
        .endMetadata().addToStringData("accessKeyID", values.get(0))
        .addToStringData("secretAccessKey", values.get(1)).build()).create();
    Path archive = druid.workDir().resolve("events-report.zip");

    DruidProcess.Result r = druid.kubectlDruid("report", "etcd-events", "-f", archive.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("wrote " + archive);

    Map<String, String> entries = unzip(archive);
    assertThat(entries.keySet()).contains("events-report/etcd.yaml",
        "events-report/status.txt", "events-report/resources/Secret.yaml",
        "events-report/README.txt");
    assertThat(entries.get("events-report/resources/Secret.yaml"))
        .contains("etcd-events-backup", "accessKeyID: \"REDACTED (19 bytes)\"");
    for (String value : values) {
      String base64 = java.util.Base64.getEncoder().encodeToString(
          value.getBytes(StandardCharsets.UTF_8));
      assertThat(entries).as("archive entries").allSatisfy((name, text) ->
          assertThat(text).doesNotContain(value).doesNotContain(base64));
    }
    assertThat(druid.kubectlDruid("report", "etcd-events", "-f", archive.toString()).code())
        .as("an existing archive is not overwritten").isEqualTo(ExitCodes.USAGE);
    assertThat(druid.kubectlDruid("report", "nope").code()).isEqualTo(ExitCodes.NOT_FOUND);
  }

  private static Map<String, String> unzip(Path archive) throws java.io.IOException {
    Map<String, String> entries = new java.util.TreeMap<>();
    try (var zip = new java.util.zip.ZipInputStream(Files.newInputStream(archive))) {
      for (var e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        entries.put(e.getName(), new String(zip.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return entries;
  }

  /** Upstream's OperatorConfiguration file is read before anything else, and checked. */
  @Test
  void operatorRefusesAConfigurationFileWithAnUnknownFieldNamingIt() throws Exception {
    Path config = Files.writeString(druid.workDir().resolve("operator-config.yaml"), """
        apiVersion: operator.config.druid.gardener.cloud/v1alpha1
        kind: OperatorConfiguration
        controllers:
          compaction: {enabled: true}
          etcd: {enableEtcdSpecAutoReconcile: true, bogus: 1}
        """);
    DruidProcess.Result refused = druid.druid("operator", "--config", config.toString());
    assertThat(refused.code()).isEqualTo(ExitCodes.ERROR);
    assertThat(refused.err()).contains("unknown field controllers.etcd.bogus");
  }

  private static Map<String, String> annotations(KubernetesClient client, String name) {
    Map<String, String> annotations = client.resources(Etcd.class).withName(name).get()
        .getMetadata().getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }

  private static JsonNode readJson(String text) {
    try {
      return new ObjectMapper().readTree(text);
    } catch (java.io.IOException e) {
      throw new AssertionError(text, e);
    }
  }

  @Test
  void probePrintsTheAnswerAndExitsByItsStatus() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress(
        InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      int status = exchange.getRequestURI().getPath().equals("/healthz") ? 200 : 503;
      byte[] body = (status == 200 ? "ok" : "not ready").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    try {
      String base = "http://127.0.0.1:" + server.getAddress().getPort();
      DruidProcess.Result ok = druid.kubectlDruid("probe", base + "/healthz");
      assertThat(ok.code()).isZero();
      assertThat(ok.out()).isEqualTo("200 ok\n");
      DruidProcess.Result failed = druid.druid("ctl", "probe", base + "/readyz");
      assertThat(failed.code()).isEqualTo(1);
      assertThat(failed.out()).isEqualTo("503 not ready\n");
    } finally {
      server.stop(0);
    }
  }

  /** The certificates of a peer-TLS Etcd in step 1 of a CA rotation; no key is ever printed. */
  @Test
  void certificatesListsEveryCertificateAndTheStepOfACaRotation(KubernetesClient client) {
    java.time.Instant now = java.time.Instant.now();
    var oldCa = cloud.gardener.druid.api.tls.Certificates.ca("old-ca",
        now.minus(java.time.Duration.ofDays(100)), now.plus(java.time.Duration.ofDays(30).plusHours(1)));
    var newCa = cloud.gardener.druid.api.tls.Certificates.ca("new-ca",
        now.minus(java.time.Duration.ofDays(1)), now.plus(java.time.Duration.ofDays(365)));
    String peerDomain = "*.etcd-certs-peer." + client.getNamespace() + ".svc";
    var leaf = cloud.gardener.druid.api.tls.Certificates.issue(oldCa, "etcd-peer",
        List.of(peerDomain), cloud.gardener.druid.api.tls.Certificates.Use.PEER,
        now.minus(java.time.Duration.ofDays(1)), now.plus(java.time.Duration.ofDays(20).plusHours(1)));
    var encoder = java.util.Base64.getEncoder();
    client.resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata()
        .withName("certs-peer-ca").endMetadata().addToData("ca.crt", encoder.encodeToString(
            (oldCa.certificatePem() + newCa.certificatePem()).getBytes(StandardCharsets.UTF_8)))
        .build()).create();
    client.resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata()
        .withName("certs-peer-server").endMetadata()
        .addToData("tls.crt", encoder.encodeToString(leaf.certificatePem()
            .getBytes(StandardCharsets.UTF_8)))
        .addToData("tls.key", encoder.encodeToString(leaf.keyPem()
            .getBytes(StandardCharsets.UTF_8))).build()).create();
    CtlCommandsIT.create(client, "etcd-certs", Map.of());
    try {
      client.resources(Etcd.class).withName("etcd-certs").edit(e -> {
        var tls = new cloud.gardener.druid.api.v1alpha1.PeerTLSConfig();
        var ca = new cloud.gardener.druid.api.v1alpha1.KeyedSecretReference();
        ca.setName("certs-peer-ca");
        ca.setDataKey("ca.crt");
        tls.setTlsCASecretRef(ca);
        var server = new io.fabric8.kubernetes.api.model.SecretReference();
        server.setName("certs-peer-server");
        tls.setServerTLSSecretRef(server);
        e.getSpec().getEtcd().setPeerUrlTls(tls);
        return e;
      });

      Etcd recorded = client.resources(Etcd.class).withName("etcd-certs").get();
      recorded.setStatus(recorded.getStatus() == null
          ? new cloud.gardener.druid.api.v1alpha1.EtcdStatus() : recorded.getStatus());
      recorded.getStatus().setCertificates(List.of(
          new cloud.gardener.druid.api.v1alpha1.CertificateRotation("peer",
              "TrustingOldAndNew", List.of("CN=old-ca (sha256 0a)", "CN=new-ca (sha256 0b)"),
              "CN=old-ca (sha256 0a)", "step 1 of 3: the members restart one at a time",
              now.toString())));
      client.resource(recorded).updateStatus(); // as the operator records a step

      DruidProcess.Result shown = druid.kubectlDruid("certificates", "etcd-certs");

      assertThat(shown.code()).as(shown.terminal()).isZero();
      assertThat(shown.out()).contains("CN=old-ca", "CN=new-ca", "CN=etcd-peer", peerDomain,
          "certs-peer-ca", "certs-peer-server", "30d", "20d")
          .contains("peer: trusts 2 CAs; 0 of 0 members started with it: step 1 of 3 done,"
              + " every member trusts the new CA CN=new-ca; next: serve its certificates")
          .contains("etcd-certs-agent-api-tls").doesNotContain("PRIVATE KEY")
          .contains("Operator (status.certificates):", "peer: TrustingOldAndNew since",
              "trusted CAs: [CN=old-ca (sha256 0a), CN=new-ca (sha256 0b)]");
      assertThat(druid.kubectlDruid("certificates", "no-such-etcd").code())
          .isEqualTo(ExitCodes.NOT_FOUND);
    } finally {
      client.resources(Etcd.class).withName("etcd-certs").delete();
      client.secrets().withName("certs-peer-ca").delete();
      client.secrets().withName("certs-peer-server").delete();
    }
  }

  @Test
  void usageAndConnectionErrorsGoToStderrWithTheirExitCodes() {
    DruidProcess.Result usage = druid.kubectlDruid("status", "--output", "xml");
    assertThat(usage.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(usage.out()).isEmpty();
    assertThat(usage.err()).contains("Invalid value for option '--output'");

    DruidProcess.Result unreachable = druid.kubectlDruid("status", "--kubeconfig",
        druid.workDir().resolve("missing").toString());
    assertThat(unreachable.code()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(unreachable.err()).startsWith("druid status: cannot read kubeconfig");
  }
}
