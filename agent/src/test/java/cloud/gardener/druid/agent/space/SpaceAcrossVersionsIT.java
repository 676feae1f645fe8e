package cloud.gardener.druid.agent.space;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import cloud.gardener.druid.agent.etcd.EtcdProcess;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the capacity flow reads and does on each etcd minor the image ships, on a real etcd: the
 * space sample (database size, size in use, the NOSPACE alarm) of a member whose history fills
 * its quota, and the recovery steps the operator sends through the agent (compaction to the
 * current revision, defragmentation, disarm), after which the member takes writes again.
 * The flow's decisions are version-independent (CapacityPlanTest); CapacityIT runs them on 3.6.
 */
class SpaceAcrossVersionsIT {

  private static final String HOST = "127.0.0.1";
  private static final long QUOTA = 16L << 20;
  private static final ByteSequence KEY = ByteSequence.from(new byte[] {'/', 'k'});

  private EtcdProcess etcd;
  private MemberClient member;
  private Client writer;

  @AfterEach
  void stop() {
    if (writer != null) {
      writer.close();
    }
    if (member != null) {
      member.close();
    }
    if (etcd != null) {
      etcd.stop(Duration.ofSeconds(10));
    }
  }

  @ParameterizedTest(name = "etcd {0}")
  @ValueSource(strings = {"3.5", "3.6", "3.7"})
  void aMemberInNoSpaceIsSampledAndRecoversByCompactionDefragmentationAndDisarm(String minor)
      throws Exception {
    Path dataDir = Files.createTempDirectory("space-" + minor);
    URI clientUrl = url();
    URI peerUrl = url();
    etcd = EtcdProcess.start(EtcdBuilds.directory(minor).resolve("etcd"), List.of(
        "--name=m0", "--data-dir=" + dataDir,
        "--listen-client-urls=" + clientUrl, "--advertise-client-urls=" + clientUrl,
        "--listen-peer-urls=" + peerUrl, "--initial-advertise-peer-urls=" + peerUrl,
        "--initial-cluster=m0=" + peerUrl, "--initial-cluster-state=new",
        "--quota-backend-bytes=" + QUOTA),
        ProcessBuilder.Redirect.appendTo(AgentProcess.logDir("SpaceAcrossVersionsIT")
            .resolve("etcd-" + minor + ".log").toFile()));
    member = new MemberClient(clientUrl, Optional.empty());
    writer = Client.builder().endpoints(clientUrl.toString()).build();
    Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> member.clusterVersion().orElse("").startsWith(minor + "."));
    SpaceSampler sampler = new SpaceSampler(() -> Optional.of(member), dataDir, QUOTA,
        Clock.systemUTC());

    // one key rewritten with 512 KiB values: its history, not its data, fills the quota
    ByteSequence value = ByteSequence.from(new byte[512 << 10]);
    Throwable refused = null;
    for (int i = 0; i < 200 && refused == null; i++) {
      refused = catchThrowable(() -> writer.getKVClient().put(KEY, value)
          .get(30, TimeUnit.SECONDS));
    }
    assertThat(refused).as("a write refused for space").isNotNull()
        .hasMessageContaining("database space exceeded");

    sampler.sample(member);
    MemberSpace full = sampler.current().orElseThrow();
    assertThat(full.alarms()).containsExactly("NOSPACE");
    assertThat(full.quotaBytes()).isEqualTo(QUOTA);
    assertThat(full.dbSizeBytes()).isGreaterThanOrEqualTo(QUOTA * 9 / 10);
    assertThat(full.dbSizeInUseBytes()).isPositive().isLessThanOrEqualTo(full.dbSizeBytes());
    assertThat(full.dataDirBytes()).isGreaterThanOrEqualTo(full.dbSizeBytes());

    member.compact(member.revision());
    member.defragment();
    assertThat(member.disarmNoSpace()).singleElement()
        .satisfies(d -> assertThat(d).startsWith("NOSPACE on "));

    sampler.sample(member);
    MemberSpace recovered = sampler.current().orElseThrow();
    assertThat(recovered.alarms()).isEmpty();
    assertThat(recovered.dbSizeBytes()).as("the database file after defragmentation")
        .isLessThan(full.dbSizeBytes() / 4);
    writer.getKVClient().put(KEY, ByteSequence.from(new byte[] {'o', 'k'}))
        .get(30, TimeUnit.SECONDS);
    assertThat(writer.getKVClient().get(KEY).get(30, TimeUnit.SECONDS).getKvs().get(0)
        .getValue().getBytes()).containsExactly('o', 'k');
  }

  private static URI url() throws IOException {
    return URI.create("http://" + HOST + ":" + LoopbackPorts.on(HOST));
  }
}
