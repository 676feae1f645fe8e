package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.model.TrustedCas;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code certificates}: every certificate an Etcd uses, and the step of a CA rotation. */
@Command(
    name = "certificates",
    mixinStandardHelpOptions = true,
    description = {
        "Every certificate the Etcd uses (client and peer TLS, the agent API): subject, issuer,"
            + " SANs, expiry; then per endpoint the CAs trusted, how many members started with"
            + " the current CA bundle, and the step of a CA rotation (docs/certificates.md)."
            + " Keys are never read."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:shown", "1:error", "2:usage error", "3:Etcd not found"})
final class CertificatesCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Parameters(index = "0", paramLabel = "ETCD", description = "Name of the Etcd.")
  String name;

  @Override
  public Integer call() {
    try (KubernetesClient client = target.client()) {
      String namespace = target.namespace();
      Etcd etcd = Etcds.get(client.resources(Etcd.class).inNamespace(namespace).withName(name),
          namespace, name);
      List<CertificatesReport.Entry> entries = new ArrayList<>();
      List<CertificatesReport.Endpoint> endpoints = new ArrayList<>();
      List<Pod> pods = client.pods().inNamespace(namespace)
          .withLabels(EtcdLabels.memberSelector(etcd)).list().getItems();
      Optional<String> bundle = TrustedCas.compute(etcd, (ns, n) -> secret(client, ns, n));
      int onBundle = (int) pods.stream().filter(p -> bundle.isPresent() && bundle.get().equals(
          Optional.ofNullable(p.getMetadata().getAnnotations()).map(a -> a.get(TrustedCas.ANNOTATION))
              .orElse(null))).count();
      var spec = etcd.getSpec().getEtcd();
      if (spec != null) {
        endpoint(client, etcd, "client", spec.getClientUrlTls(), onBundle, pods.size(), entries,
            endpoints);
        endpoint(client, etcd, "peer", spec.getPeerUrlTls(), onBundle, pods.size(), entries,
            endpoints);
      }
      agent(client, etcd, entries, endpoints);
      spec().commandLine().getOut().print(CertificatesReport.render(entries, endpoints,
          Instant.now()) + CertificatesReport.recorded(etcd.getStatus() == null ? null
          : etcd.getStatus().getCertificates()));
      return ExitCodes.OK;
    }
  }

  private CommandSpec spec() {
    return spec;
  }

  private static void endpoint(KubernetesClient client, Etcd etcd, String name, TLSConfig tls,
      int onBundle, int members, List<CertificatesReport.Entry> entries,
      List<CertificatesReport.Endpoint> endpoints) {
    if (tls == null) {
      return;
    }
    String ns = etcd.getMetadata().getNamespace();
    String caKey = tls.getTlsCASecretRef().getDataKey() == null
        || tls.getTlsCASecretRef().getDataKey().isEmpty() ? "ca.crt"
        : tls.getTlsCASecretRef().getDataKey();
    List<X509Certificate> cas = read(client, ns, tls.getTlsCASecretRef().getName(), caKey);
    entries.add(new CertificatesReport.Entry(name, tls.getTlsCASecretRef().getName(), caKey, cas));
    List<X509Certificate> server = read(client, ns, tls.getServerTLSSecretRef().getName(),
        "tls.crt");
    entries.add(new CertificatesReport.Entry(name, tls.getServerTLSSecretRef().getName(),
        "tls.crt", server));
    if (tls.getClientTLSSecretRef() != null) {
      entries.add(new CertificatesReport.Entry(name, tls.getClientTLSSecretRef().getName(),
          "tls.crt", read(client, ns, tls.getClientTLSSecretRef().getName(), "tls.crt")));
    }
    String inUse = EtcdNames.of(etcd).peerTlsSecret();
    if ("peer".equals(name) && secret(client, ns, inUse) != null) {
      // what the members are given: the operator's copy, advanced step by step
      cas = read(client, ns, inUse, "ca.crt");
      server = read(client, ns, inUse, "tls.crt");
      entries.add(new CertificatesReport.Entry(name, inUse, "ca.crt", cas));
      entries.add(new CertificatesReport.Entry(name, inUse, "tls.crt", server));
    }
    endpoints.add(new CertificatesReport.Endpoint(name, cas, server.stream().findFirst(),
        onBundle, members));
  }

  /** The agent API: the operator's Secret, or the server certificate of spec.backup.tls. */
  private static void agent(KubernetesClient client, Etcd etcd,
      List<CertificatesReport.Entry> entries, List<CertificatesReport.Endpoint> endpoints) {
    String ns = etcd.getMetadata().getNamespace();
    String issued = EtcdNames.of(etcd).agentApiSecret();
    List<X509Certificate> cas = read(client, ns, issued, "ca.crt");
    entries.add(new CertificatesReport.Entry("agent", issued, "ca.crt", cas));
    TLSConfig tls = etcd.getSpec().getBackup() == null ? null : etcd.getSpec().getBackup().getTls();
    String serverSecret = tls == null ? issued : tls.getServerTLSSecretRef().getName();
    List<X509Certificate> server = read(client, ns, serverSecret, "tls.crt");
    entries.add(new CertificatesReport.Entry("agent", serverSecret, "tls.crt", server));
    entries.add(new CertificatesReport.Entry("agent", issued, "client.crt",
        read(client, ns, issued, "client.crt")));
    endpoints.add(new CertificatesReport.Endpoint("agent", tls == null ? cas
        : read(client, ns, tls.getTlsCASecretRef().getName(), "ca.crt"),
        server.stream().findFirst(), null, 0));
  }

  private static List<X509Certificate> read(KubernetesClient client, String ns, String secret,
      String key) {
    Secret s = secret(client, ns, secret);
    Map<String, String> data = s == null ? null : s.getData();
    if (data == null || data.get(key) == null) {
      return List.of();
    }
    return CertificatesReport.parse(Base64.getDecoder().decode(data.get(key)));
  }

  private static Secret secret(KubernetesClient client, String ns, String name) {
    return client.secrets().inNamespace(ns).withName(name).get();
  }
}
