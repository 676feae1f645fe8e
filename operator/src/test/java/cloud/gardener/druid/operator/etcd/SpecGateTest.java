package cloud.gardener.druid.operator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.LastOperation;
import cloud.gardener.druid.operator.testing.Etcds;
import java.time.Instant;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

class SpecGateTest {

  @Test
  void suspendWinsOverEverything() {
    Etcd etcd = annotated(Annotations.SUSPEND_SPEC_RECONCILE, "true");
    etcd.getMetadata().getAnnotations().put(Annotations.OPERATION, "reconcile");
    assertThat(SpecGate.decide(etcd, true).reconcileSpec()).isFalse();
  }

  @Test
  void withoutAutoReconcileOnlyNewOrAnnotatedEtcdsAreReconciled() {
    Etcd etcd = Etcds.etcd("e", 1);
    assertThat(SpecGate.decide(etcd, false).reconcileSpec()).isTrue();
    EtcdStatus status = new EtcdStatus();
    status.setObservedGeneration(1L);
    etcd.setStatus(status);
    assertThat(SpecGate.decide(etcd, false).reconcileSpec())
        .as("the admitted generation is rolled out to the end").isTrue();
    etcd.getMetadata().setGeneration(2L);
    assertThat(SpecGate.decide(etcd, false).reconcileSpec()).isFalse();
    etcd.getMetadata().setAnnotations(new HashMap<>());
    etcd.getMetadata().getAnnotations().put(Annotations.LEGACY_OPERATION, "reconcile");
    assertThat(SpecGate.decide(etcd, false).reconcileSpec()).isTrue();
  }

  @Test
  void aHeldSpecSaysWhyInLastOperationAndKeepsTheLastRunsState() {
    Etcd etcd = Etcds.etcd("e", 1);
    EtcdStatus status = new EtcdStatus();
    status.setObservedGeneration(1L);
    LastOperation last = new LastOperation();
    last.setState(OperationRecord.SUCCEEDED);
    last.setDescription("Etcd reconciled: all members are up to date");
    status.setLastOperation(last);
    etcd.setStatus(status);
    etcd.getMetadata().setGeneration(2L);
    SpecGate gate = SpecGate.decide(etcd, false);
    OperationRecord op = new OperationRecord(etcd, Instant.parse("2026-01-01T00:00:00Z"));
    op.held(gate.reason());
    assertThat(op.lastOperation().getState()).isEqualTo(OperationRecord.SUCCEEDED);
    assertThat(op.lastOperation().getDescription()).contains("spec not reconciled",
        Annotations.OPERATION + ": " + Annotations.OPERATION_RECONCILE);

    etcd.getMetadata().setAnnotations(new HashMap<>());
    etcd.getMetadata().getAnnotations().put(Annotations.SUSPEND_SPEC_RECONCILE, "true");
    OperationRecord suspended = new OperationRecord(etcd, Instant.parse("2026-01-01T00:00:00Z"));
    suspended.held(SpecGate.decide(etcd, true).reason());
    assertThat(suspended.lastOperation().getDescription())
        .contains("suspended", Annotations.SUSPEND_SPEC_RECONCILE);
  }

  private static Etcd annotated(String key, String value) {
    Etcd etcd = Etcds.etcd("e", 1);
    etcd.getMetadata().setAnnotations(new HashMap<>());
    etcd.getMetadata().getAnnotations().put(key, value);
    return etcd;
  }
}
