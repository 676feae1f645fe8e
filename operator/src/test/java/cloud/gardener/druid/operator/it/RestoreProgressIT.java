package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.createEtcdWithVolumes;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.pods;
import static cloud.gardener.druid.operator.it.ItSupport.pvcs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.operator.testing.LocalStores;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A member restoring from the backup store shows how far it is in the Etcd's status while it
 * restores: its {@code status.members[]} entry has the reason {@code Restoring} and the
 * {@code AllMembersReady} message carries the agent's description. The restore is made long
 * enough to be seen by {@link #DELTAS} delta snapshots of 1 MiB each, written into the store
 * after the final full snapshot of a hibernation that deleted the volume.
 */
@WithOperator
class RestoreProgressIT {

  static final int DELTAS = 64;

  /** One status version as the watch saw it. */
  record Version(String allMembersReady, String memberReason, boolean complete) {
  }

  @Test
  void aMemberRestoringFromTheStoreShowsHowFarInTheEtcdStatus(KubernetesClient client,
      TestNamespace ns, OperatorHarness operator) throws Exception {
    createEtcdWithVolumes(client, ns, "restoring", 1, "standard");
    awaitRolloutComplete(client, "restoring");
    EtcdEdits.edit(client, "restoring", e -> {
      e.getSpec().getHibernation().setDeleteVolumes(true);
      e.getSpec().setReplicas(0);
    });
    await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() ->
        pods(client, "restoring").isEmpty() && pvcs(client, "restoring").isEmpty());

    Etcd restoring = client.resources(Etcd.class).inNamespace(ns.name()).withName("restoring").get();
    LocalSnapshotStore store = new LocalSnapshotStore(LocalStores.dir(operator.settings(), restoring),
        restoring.getSpec().getBackup().getStore().getPrefix());
    long revision = store.list().stream().filter(Snapshot::isFull)
        .mapToLong(Snapshot::endRevision).max().orElseThrow();
    Random random = new Random(19);
    Instant now = Instant.now();
    for (int i = 0; i < DELTAS; i++) {
      long r = revision + 1 + i;
      byte[] value = new byte[1 << 20];
      random.nextBytes(value);
      DeltaEvent put = DeltaEvent.put(("/restored/" + i).getBytes(StandardCharsets.UTF_8),
          value, r, r, 1, 0, now);
      store.put(Snapshot.delta(r, r, now.plusMillis(i), Snapshot.Compression.NONE),
          out -> DeltaFormat.write(List.of(put), out));
    }

    List<Version> seen = new CopyOnWriteArrayList<>();
    try (Watch watch = client.resources(Etcd.class).withName("restoring")
        .watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, Etcd etcd) {
            if (etcd.getStatus() == null) {
              return;
            }
            Condition c = etcd.getStatus().getConditions() == null ? null
                : etcd.getStatus().getConditions().stream()
                    .filter(x -> ConditionTypes.ALL_MEMBERS_READY.equals(x.getType()))
                    .findFirst().orElse(null);
            List<EtcdMemberStatus> members = etcd.getStatus().getMembers();
            seen.add(new Version(c == null ? null : c.getMessage(),
                members == null || members.isEmpty() ? null : members.get(0).getReason(),
                RolloutCompletion.isComplete(etcd)));
          }

          @Override
          public void onClose(WatcherException cause) {
          }
        })) {
      Instant woken = Instant.now();
      EtcdEdits.edit(client, "restoring", e -> e.getSpec().setReplicas(1));
      awaitRolloutComplete(client, "restoring", Duration.ofMinutes(4));
      Duration took = Duration.between(woken, Instant.now());
      // the watch starts with the hibernated Etcd, complete: the versions of waking up follow
      await().atMost(Duration.ofSeconds(30)).until(() -> wakingUp(seen).stream()
          .anyMatch(Version::complete));
      List<Version> wakingUp = wakingUp(seen);
      List<Version> before = wakingUp.subList(0, wakingUp.indexOf(
          wakingUp.stream().filter(Version::complete).findFirst().orElseThrow()));
      assertThat(before).as("status versions in the " + took.toMillis() + " ms to ready: "
          + seen).anyMatch(v -> "Restoring".equals(v.memberReason())
              && v.allMembersReady() != null
              && v.allMembersReady().matches("Members not ready: \\S+ \\(restoring: .*\\)\\."));
    }

    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client,
        etcd(client, "restoring")))) {
      assertThat(etcdClient.getKVClient().get(ByteSequence.from("/restored/" + (DELTAS - 1),
          StandardCharsets.UTF_8)).get(30, TimeUnit.SECONDS).getKvs())
          .as("the last delta was replayed").singleElement()
          .satisfies(kv -> assertThat(kv.getValue().size()).isEqualTo(1 << 20));
    }
  }

  /** The versions from the first one that is not complete on. */
  private static List<Version> wakingUp(List<Version> seen) {
    List<Version> copy = List.copyOf(seen);
    for (int i = 0; i < copy.size(); i++) {
      if (!copy.get(i).complete()) {
        return copy.subList(i, copy.size());
      }
    }
    return List.of();
  }
}
