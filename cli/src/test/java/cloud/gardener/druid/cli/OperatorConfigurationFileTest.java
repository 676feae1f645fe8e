package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.cli.shared.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Upstream's OperatorConfiguration file as the operator's configuration; flags still win. */
class OperatorConfigurationFileTest {

  @TempDir
  Path dir;

  private Path file(String body) throws Exception {
    return Files.writeString(dir.resolve("config.yaml"), """
        apiVersion: operator.config.druid.gardener.cloud/v1alpha1
        kind: OperatorConfiguration
        """ + body);
  }

  private static OperatorCommand parse(Path file, List<String> ignored, String... flags) {
    OperatorCommand command = new OperatorCommand();
    String[] args = new String[flags.length + 2];
    args[0] = "--config";
    args[1] = file.toString();
    System.arraycopy(flags, 0, args, 2, flags.length);
    CommandLine.ParseResult parsed = new CommandLine(command).parseArgs(args);
    ignored.addAll(OperatorConfigurationFile.apply(file, command, parsed));
    return command;
  }

  @Test
  void upstreamsFieldsSetTheOptionsTheCommandLineDoesNotGive() throws Exception {
    Path file = file("""
        leaderElection:
          enabled: false
          leaseDuration: 15s
          renewDeadline: 10s
          retryPeriod: 2s
          resourceLock: leases
        server:
          metrics: {bindAddress: 127.0.0.1, port: 8080}
          webhooks: {port: 10443, serverCertDir: /etc/webhook-server-tls}
        controllers:
          etcd:
            enableEtcdSpecAutoReconcile: false
            concurrentSyncs: 3
            etcdMember: {notReadyThreshold: 5m}
          compaction:
            enabled: true
            eventsThreshold: 500000
            triggerFullSnapshotThreshold: 1500000
            activeDeadlineDuration: 1h
        webhooks:
          etcdComponentProtection:
            enabled: true
            exemptServiceAccounts:
            - system:serviceaccount:kube-system:generic-garbage-collector
        featureGates: {UpgradeEtcdVersion: true}
        logging: {logLevel: info, logFormat: json}
        """);
    List<String> ignored = new java.util.ArrayList<>();
    OperatorCommand c = parse(file, ignored, "--metrics-port=9000");
    assertThat(c.leaderElection).isFalse();
    assertThat(c.leaseDuration).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.renewDeadline).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.retryPeriod).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.metricsAddress).isEqualTo("127.0.0.1");
    assertThat(c.metricsPort).as("the flag wins").isEqualTo(9000);
    assertThat(c.webhook.port).isEqualTo(10443);
    assertThat(c.autoReconcile).isFalse();
    assertThat(c.enableCompaction).isTrue();
    assertThat(c.eventsThreshold).isEqualTo(500_000);
    assertThat(c.fullSnapshotThreshold).isEqualTo(1_500_000);
    assertThat(c.activeDeadline).isEqualTo(Duration.ofHours(1));
    assertThat(c.webhook.enabled).isTrue();
    assertThat(c.webhook.exempt)
        .containsExactly("system:serviceaccount:kube-system:generic-garbage-collector");
    assertThat(ignored).containsExactly("leaderElection.resourceLock",
        "server.webhooks.serverCertDir", "controllers.etcd.concurrentSyncs",
        "controllers.etcd.etcdMember", "featureGates", "logging");
  }

  @Test
  void anUnknownFieldOrAWrongValueIsRefusedNamingIt() throws Exception {
    assertThatThrownBy(() -> parse(file("controllers: {etcd: {bogus: 1}}\n"),
        new java.util.ArrayList<>()))
        .isInstanceOf(UserError.class).hasMessageEndingWith("unknown field controllers.etcd.bogus");
    assertThatThrownBy(() -> parse(file("controllers: {compaction: {enabled: yes-please}}\n"),
        new java.util.ArrayList<>()))
        .isInstanceOf(UserError.class).hasMessageContaining("controllers.compaction.enabled:"
            + " must be true or false");
    Path wrongKind = Files.writeString(dir.resolve("other.yaml"), "apiVersion: v1\nkind: Pod\n");
    assertThatThrownBy(() -> parse(wrongKind, new java.util.ArrayList<>()))
        .isInstanceOf(UserError.class).hasMessageContaining("apiVersion must be"
            + " operator.config.druid.gardener.cloud/v1alpha1 and kind OperatorConfiguration");
  }
}
