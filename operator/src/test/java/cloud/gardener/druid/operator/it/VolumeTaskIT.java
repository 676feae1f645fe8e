package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createEtcdWithVolumes;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.pods;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.ReplaceMemberVolumeConfig;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * EtcdOpsTasks on volumes: replacing one member's corrupted volume while the others keep
 * running, and recovering a 3-member cluster whose majority lost pods and volumes.
 */
@WithOperator
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VolumeTaskIT {

  @BeforeAll
  static void createEtcd(TestNamespace ns, KubernetesClient client) throws Exception {
    createEtcdWithVolumes(client, ns, "tasks", 3, "standard");
    awaitRolloutComplete(client, "tasks");
  }

  @Test
  @Order(1)
  void replaceMemberVolumeBringsACorruptedMemberBackInSyncWithoutRestartingTheOthers(
      KubernetesClient client) throws Exception {
    QuorumLossRecovery.put(client, "tasks", "/replace/", 100);
    Pod follower = pods(client, "tasks").stream()
        .filter(p -> !isLeader(client, p)).findFirst().orElseThrow();
    String name = follower.getMetadata().getName();
    PersistentVolumeClaim oldPvc = pvcOf(client, name);
    Map<String, String> others = pods(client, "tasks").stream()
        .filter(p -> !p.getMetadata().getName().equals(name))
        .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
    corruptDatabase(client, oldPvc);

    createTask(client, "replace-" + name, "tasks", c -> {
      ReplaceMemberVolumeConfig r = new ReplaceMemberVolumeConfig();
      r.setMemberName(name);
      c.setReplaceMemberVolume(r);
    }, null);
    EtcdOpsTask task = awaitTaskState(client, "replace-" + name, "Succeeded");

    assertThat(task.getStatus().getLastErrors()).isNullOrEmpty();
    assertThat(pvcOf(client, name).getMetadata().getUid()).as("a new volume")
        .isNotEqualTo(oldPvc.getMetadata().getUid());
    assertThat(pods(client, "tasks").stream()
        .filter(p -> others.containsKey(p.getMetadata().getName()))
        .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid())))
        .as("the other members were never restarted").isEqualTo(others);
    VolumeOperation op = etcd(client, "tasks").getStatus().getVolumeOperation();
    assertThat(op.getTask()).isEqualTo("replace-" + name);
    assertThat(op.getCompletedMembers()).containsExactly(name);
    awaitRolloutComplete(client, "tasks");
    try (Client c = EtcdClients.connect(List.of(endpointOf(client, name)))) {
      for (int i = 0; i < 100; i++) {
        assertThat(EtcdClients.get(c.getKVClient(), "/replace/" + i)).as("served by " + name)
            .isEqualTo("v" + i);
      }
      assertThat(c.getClusterClient().listMember().get().getMembers())
          .hasSize(3).noneMatch(m -> m.isLearner());
    }
  }

  @Test
  @Order(2)
  void recoverFromQuorumLossRestoresEveryKeyUpToTheLastDeltaSnapshot(KubernetesClient client)
      throws Exception {
    long revision = QuorumLossRecovery.put(client, "tasks", "/quorum/", 200);
    QuorumLossRecovery.awaitBackedUp(client, "tasks", revision);
    QuorumLossRecovery.lose(client, "tasks", List.of("tasks-1", "tasks-2"));
    QuorumLossRecovery.recover(client, "tasks", "recover");
    QuorumLossRecovery.assertKeys(client, "tasks", "/quorum/", 200, 3);
    QuorumLossRecovery.assertKeys(client, "tasks", "/replace/", 100, 3);
  }

  private static boolean isLeader(KubernetesClient client, Pod pod) {
    Lease lease = client.leases().withName(pod.getMetadata().getName()).get();
    return lease != null && lease.getSpec().getHolderIdentity() != null
        && lease.getSpec().getHolderIdentity().endsWith(":Leader");
  }

  private static PersistentVolumeClaim pvcOf(KubernetesClient client, String member) {
    return client.persistentVolumeClaims().withName("tasks-" + member).get();
  }

  private static String endpointOf(KubernetesClient client, String member) {
    Pod pod = client.pods().withName(member).get();
    return "http://" + pod.getStatus().getPodIP() + ":2379";
  }

  /** Overwrites the start of the member's bbolt file on its volume: a broken disk. */
  private static void corruptDatabase(KubernetesClient client, PersistentVolumeClaim pvc)
      throws Exception {
    PersistentVolume pv = client.persistentVolumes().withName(pvc.getSpec().getVolumeName()).get();
    Path root = Path.of(pv.getSpec().getHostPath().getPath());
    Path db;
    try (Stream<Path> files = Files.walk(root)) {
      db = files.filter(f -> f.getFileName().toString().equals("db")
          && f.getParent().getFileName().toString().equals("snap")).findFirst().orElseThrow();
    }
    try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
      f.seek(0);
      f.write(new byte[16384]);
    }
  }
}
