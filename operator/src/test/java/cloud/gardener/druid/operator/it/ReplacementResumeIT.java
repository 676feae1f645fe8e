package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static cloud.gardener.druid.operator.it.ItSupport.pvcs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.etcd.StepHook;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The operator is stopped at every step of a 3-member volume replacement (right before the
 * step, or right after it and before its outcome is recorded) and a new operator takes over:
 * the replacement still finishes, never with two members missing, and nothing is lost.
 */
@WithOperator
class ReplacementResumeIT {

  /** Where to crash, in the order the replacement reaches them. */
  record CrashPoint(StepHook.Point point, Class<? extends RolloutAction> step) {
    boolean matches(StepHook.Point p, RolloutAction a) {
      return p == point && step.isInstance(a);
    }
  }

  static final List<CrashPoint> CRASHES = List.of(
      new CrashPoint(StepHook.Point.AFTER, RolloutAction.RecordVolumeOperation.class),
      new CrashPoint(StepHook.Point.BEFORE, RolloutAction.TakeFullSnapshot.class),
      new CrashPoint(StepHook.Point.AFTER, RolloutAction.TakeFullSnapshot.class),
      new CrashPoint(StepHook.Point.BEFORE, RolloutAction.DeleteMemberAndVolume.class),
      new CrashPoint(StepHook.Point.AFTER, RolloutAction.DeleteMemberAndVolume.class),
      new CrashPoint(StepHook.Point.AFTER, RolloutAction.RemoveMember.class),
      new CrashPoint(StepHook.Point.AFTER, RolloutAction.CreateVolumes.class),
      new CrashPoint(StepHook.Point.AFTER, RolloutAction.CreatePods.class),
      new CrashPoint(StepHook.Point.AFTER, RolloutAction.PromoteLearner.class),
      new CrashPoint(StepHook.Point.AFTER, RolloutAction.MoveLeader.class));

  @AfterEach
  void removeCrashHook() {
    StepHook.install(null);
  }

  @Test
  void aReplacementInterruptedAtEveryStepResumesAndFinishesWithNeverTwoMembersMissing(
      TestNamespace ns, KubernetesClient client, OperatorHarness operator) throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("resume");
    etcd.getSpec().setStorageCapacity(new Quantity("2Gi"));
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/resume");
    Map<String, String> labels = new HashMap<>(etcd.getSpec().getLabels());
    labels.put("app", "resume");
    etcd.getSpec().setLabels(labels);
    client.resource(etcd).create();
    awaitRolloutComplete(client, "resume");
    try (Client c = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      for (int i = 0; i < 100; i++) {
        EtcdClients.put(c.getKVClient(), "/resume/" + i, "v" + i);
      }
    }

    Deque<CrashPoint> pending = new ArrayDeque<>(CRASHES);
    List<String> crashed = new ArrayList<>();
    AtomicReference<CrashPoint> crashedAt = new AtomicReference<>();
    try (MemberWatch members = MemberWatch.start(client, "resume")) {
      installCrashAt(pending.peekFirst(), crashedAt);
      Etcd changed = EtcdEdits.edit(client, "resume", e -> {
        e.getSpec().setStorageClass("encrypted");
        Map<String, String> a = new HashMap<>();
        a.put(Annotations.CONFIRM_VOLUME_REPLACEMENT,
            Long.toString(e.getMetadata().getGeneration() + 1));
        e.getMetadata().setAnnotations(a);
      });
      assertThat(changed.getMetadata().getAnnotations())
          .containsEntry(Annotations.CONFIRM_VOLUME_REPLACEMENT,
              changed.getMetadata().getGeneration().toString());

      Instant deadline = Instant.now().plus(Duration.ofMinutes(8));
      while (!RolloutCompletion.isComplete(etcd(client, "resume"))) {
        assertThat(Instant.now()).as("replacement finished in time; crashed at " + crashed)
            .isBefore(deadline);
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
            .ignoreExceptions().until(() -> crashedAt.get() != null
                || RolloutCompletion.isComplete(etcd(client, "resume")));
        if (crashedAt.get() != null) {
          crashed.add(crashedAt.get().point() + " " + crashedAt.get().step().getSimpleName());
          operator.close();
          pending.pollFirst();
          crashedAt.set(null);
          installCrashAt(pending.peekFirst(), crashedAt);
          operator.restart();
        }
      }

      assertThat(crashed).as("every crash point was reached").hasSize(CRASHES.size());
      assertThat(members.minReady()).as("ready members at any time").isGreaterThanOrEqualTo(2);
    }
    assertThat(pvcs(client, "resume")).hasSize(3)
        .allSatisfy(p -> assertThat(p.getSpec().getStorageClassName()).isEqualTo("encrypted"));
    VolumeOperation op = etcd(client, "resume").getStatus().getVolumeOperation();
    assertThat(op.getPhase()).isEqualTo(VolumeOperation.PHASE_COMPLETED);
    assertThat(op.getCompletedMembers()).hasSize(3).doesNotHaveDuplicates();
    try (Client c = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      for (int i = 0; i < 100; i++) {
        assertThat(EtcdClients.get(c.getKVClient(), "/resume/" + i)).isEqualTo("v" + i);
      }
      assertThat(c.getClusterClient().listMember().get().getMembers())
          .hasSize(3).noneMatch(m -> m.isLearner());
    }
  }

  /**
   * Makes the operator fail at {@code target} and at every step after it (a dead operator
   * takes no step) until the test replaces it.
   */
  private static void installCrashAt(CrashPoint target, AtomicReference<CrashPoint> crashedAt) {
    if (target == null) {
      StepHook.install(null);
      return;
    }
    AtomicBoolean dead = new AtomicBoolean();
    StepHook.install((point, e, action) -> {
      // the hook is global; operators of classes running beside this one pass
      if (!"resume".equals(e.getMetadata().getName())) {
        return;
      }
      if (dead.get() || target.matches(point, action)) {
        dead.set(true);
        crashedAt.compareAndSet(null, target);
        throw new IllegalStateException("test crash at " + target);
      }
    });
  }
}
