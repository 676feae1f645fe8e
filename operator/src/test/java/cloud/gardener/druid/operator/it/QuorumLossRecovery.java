package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.pods;
import static cloud.gardener.druid.operator.it.ItSupport.pvcs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The quorum-loss scenario of the ITs, whatever store the members back up to: write keys, wait
 * until a delta snapshot holds them, lose members with their volumes, recover with a
 * {@code recoverFromQuorumLoss} task from the store and find every key again.
 */
final class QuorumLossRecovery {

  private QuorumLossRecovery() {
  }

  /** Writes {@code prefix}0..{@code count-1} = v0..; the revision of the last write. */
  static long put(KubernetesClient client, String etcd, String prefix, int count)
      throws Exception {
    try (Client c = EtcdClients.connect(EtcdClients.endpoints(client, etcd(client, etcd)))) {
      long revision = 0;
      for (int i = 0; i < count; i++) {
        revision = c.getKVClient().put(EtcdClients.bytes(prefix + i), EtcdClients.bytes("v" + i))
            .get().getHeader().getRevision();
      }
      return revision;
    }
  }

  /**
   * Waits until the backups reach {@code revision}: the newest delta or full snapshot (their
   * leases; a full snapshot may cover writes no delta will hold).
   */
  static void awaitBackedUp(KubernetesClient client, String etcd, long revision) {
    await().atMost(Duration.ofMinutes(2)).until(() -> Math.max(
        snapshotRevision(client, etcd + "-delta-snap"),
        snapshotRevision(client, etcd + "-full-snap")) >= revision);
  }

  /** The revision a snapshot lease holds; -1 before the first snapshot. */
  static long snapshotRevision(KubernetesClient client, String lease) {
    var found = client.leases().withName(lease).get();
    return found == null || found.getSpec() == null || found.getSpec().getHolderIdentity() == null
        ? -1 : Long.parseLong(found.getSpec().getHolderIdentity());
  }

  /**
   * Deletes the members' pods and volumes and waits until those volumes are gone (the operator
   * may already have created new, empty ones under the same names).
   */
  static void lose(KubernetesClient client, String etcd, List<String> members) {
    Set<String> lost = new HashSet<>();
    for (String member : members) {
      PersistentVolumeClaim pvc = client.persistentVolumeClaims()
          .withName(etcd + "-" + member).get();
      lost.add(pvc.getMetadata().getUid());
      client.pods().withName(member).withGracePeriod(0).delete();
      client.resource(pvc).delete();
    }
    await().atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() -> pvcs(client, etcd)
        .stream().noneMatch(p -> lost.contains(p.getMetadata().getUid())));
  }

  /** Runs a {@code recoverFromQuorumLoss} task from the store and waits for the rollout. */
  static void recover(KubernetesClient client, String etcd, String task) {
    createTask(client, task, etcd, c -> {
      RecoverFromQuorumLossConfig r = new RecoverFromQuorumLossConfig();
      r.setSource(RecoverFromQuorumLossConfig.Source.STORE);
      c.setRecoverFromQuorumLoss(r);
    }, null);
    awaitTaskState(client, task, "Succeeded");
    awaitRolloutComplete(client, etcd);
  }

  /** Asserts every key {@link #put} wrote and that all {@code replicas} are voting members. */
  static void assertKeys(KubernetesClient client, String etcd, String prefix, int count,
      int replicas) throws Exception {
    try (Client c = EtcdClients.connect(EtcdClients.endpoints(client, etcd(client, etcd)))) {
      for (int i = 0; i < count; i++) {
        assertThat(EtcdClients.get(c.getKVClient(), prefix + i)).as(prefix + i)
            .isEqualTo("v" + i);
      }
      assertThat(c.getClusterClient().listMember().get().getMembers())
          .hasSize(replicas).noneMatch(m -> m.isLearner());
    }
    assertThat(pods(client, etcd)).hasSize(replicas);
  }
}
