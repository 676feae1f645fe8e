package cloud.gardener.druid.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdSpec;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EtcdPlansTest {

  static Etcd etcd(String name, int replicas) {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("team-a")
        .withGeneration(4L).build());
    EtcdSpec spec = new EtcdSpec();
    spec.setReplicas(replicas);
    etcd.setSpec(spec);
    return etcd;
  }

  static Etcd withStore(Etcd etcd) {
    BackupSpec backup = new BackupSpec();
    StoreSpec store = new StoreSpec();
    store.setPrefix("team-a--" + etcd.getMetadata().getName());
    backup.setStore(store);
    etcd.getSpec().setBackup(backup);
    return etcd;
  }

  static Etcd awaitingConfirmation(Etcd etcd) {
    EtcdStatus status = new EtcdStatus();
    status.setObservedGeneration(etcd.getMetadata().getGeneration());
    Condition c = new Condition();
    c.setType(ConditionTypes.VOLUMES_UP_TO_DATE);
    c.setStatus("False");
    c.setReason("AwaitingConfirmation");
    c.setMessage("storageClass standard -> encrypted: every member's volume is replaced."
        + " Confirm with: kubectl annotate ...");
    status.setConditions(List.of(c));
    etcd.setStatus(status);
    return etcd;
  }

  private static Plan.Edit edit(Plan plan) {
    assertThat(plan).isInstanceOf(Plan.Edit.class);
    return (Plan.Edit) plan;
  }

  @Test
  void confirmVolumesShowsTheChangeAndConfirmsTheCurrentGenerationOnly() {
    Plan.Edit edit = edit(EtcdPlans.confirmVolumes(awaitingConfirmation(etcd("main", 3))));
    assertThat(edit.steps().get(0)).isEqualTo(
        "pending volume change: storageClass standard -> encrypted: every member's volume is"
            + " replaced.");
    assertThat(edit.steps().get(1)).contains(Annotations.CONFIRM_VOLUME_REPLACEMENT + "=4");
    Etcd after = edit.edit().apply(etcd("main", 3));
    assertThat(after.getMetadata().getAnnotations())
        .containsEntry(Annotations.CONFIRM_VOLUME_REPLACEMENT, "4");
  }

  @Test
  void confirmVolumesRefusesBeforeTheOperatorSaidWhatWillHappen() {
    Etcd etcd = awaitingConfirmation(etcd("main", 3));
    etcd.getMetadata().setGeneration(5L);
    assertThat(EtcdPlans.confirmVolumes(etcd)).isInstanceOfSatisfying(Plan.Refusal.class,
        r -> assertThat(r.reason()).contains("has not observed generation 5 yet"));
    Etcd upToDate = etcd("main", 3);
    upToDate.setStatus(new EtcdStatus());
    upToDate.getStatus().setObservedGeneration(4L);
    assertThat(EtcdPlans.confirmVolumes(upToDate)).isInstanceOfSatisfying(Plan.Refusal.class,
        r -> assertThat(r.reason()).contains("no volume change awaits confirmation"));
  }

  @Test
  void hibernateRemembersTheReplicasAndWakeRestoresThem() {
    Plan.Edit hibernate = edit(EtcdPlans.hibernate(withStore(etcd("main", 3)), false));
    assertThat(hibernate.steps()).anyMatch(s -> s.contains("final full snapshot"));
    Etcd hibernated = hibernate.edit().apply(withStore(etcd("main", 3)));
    assertThat(hibernated.getSpec().getReplicas()).isZero();
    assertThat(hibernated.getMetadata().getAnnotations())
        .containsEntry(EtcdPlans.REPLICAS_BEFORE_HIBERNATION, "3");

    Plan.Edit wake = edit(EtcdPlans.wake(hibernated, null));
    assertThat(wake.steps()).containsExactly("will set spec.replicas of etcd team-a/main from 0"
        + " to 3", "the members start on their kept volumes");
    Etcd awake = wake.edit().apply(hibernated);
    assertThat(awake.getSpec().getReplicas()).isEqualTo(3);
    assertThat(awake.getMetadata().getAnnotations())
        .doesNotContainKey(EtcdPlans.REPLICAS_BEFORE_HIBERNATION);
  }

  @Test
  void hibernateWithDeleteVolumesNeedsAStore() {
    assertThat(EtcdPlans.hibernate(etcd("main", 3), true)).isInstanceOf(Plan.Refusal.class);
    Plan.Edit edit = edit(EtcdPlans.hibernate(withStore(etcd("main", 3)), true));
    assertThat(edit.edit().apply(withStore(etcd("main", 3))).getSpec().getHibernation()
        .getDeleteVolumes()).isTrue();
  }

  @Test
  void wakeWithoutAKnownCountAsksForReplicas() {
    assertThat(EtcdPlans.wake(etcd("main", 0), null)).isInstanceOfSatisfying(Plan.Refusal.class,
        r -> assertThat(r.reason()).contains("--replicas"));
    assertThat(edit(EtcdPlans.wake(etcd("main", 0), 5)).edit().apply(etcd("main", 0))
        .getSpec().getReplicas()).isEqualTo(5);
  }

  @Test
  void suspendResumeAndReconcileAreTheUpstreamAnnotations() {
    Etcd suspended = edit(EtcdPlans.suspend(etcd("main", 3))).edit().apply(etcd("main", 3));
    assertThat(suspended.getMetadata().getAnnotations())
        .containsEntry(Annotations.SUSPEND_SPEC_RECONCILE, "true");
    assertThat(EtcdPlans.suspend(suspended)).isInstanceOf(Plan.Refusal.class);
    assertThat(edit(EtcdPlans.reconcile(suspended)).steps())
        .anyMatch(s -> s.contains("nothing happens until 'resume'"));
    Etcd resumed = edit(EtcdPlans.resume(suspended)).edit().apply(suspended);
    assertThat(resumed.getMetadata().getAnnotations()).isEqualTo(Map.of());
    assertThat(edit(EtcdPlans.reconcile(resumed)).edit().apply(resumed).getMetadata()
        .getAnnotations()).containsEntry(Annotations.OPERATION, "reconcile");
  }
}
