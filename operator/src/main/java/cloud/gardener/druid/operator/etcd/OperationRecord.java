package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.LastError;
import cloud.gardener.druid.api.v1alpha1.LastOperation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** lastOperation and lastErrors of one reconcile, as upstream records them. */
final class OperationRecord {

  static final String PROCESSING = "Processing";
  static final String SUCCEEDED = "Succeeded";
  static final String ERROR = "Error";

  private final Etcd etcd;
  private final Instant now;
  private final List<LastError> errors = new ArrayList<>();
  private String state;
  private String description;

  OperationRecord(Etcd etcd, Instant now) {
    this.etcd = etcd;
    this.now = now;
    LastOperation prev = etcd.getStatus() == null ? null : etcd.getStatus().getLastOperation();
    this.state = prev == null ? null : prev.getState();
    this.description = prev == null ? null : prev.getDescription();
  }

  void processing(String what) {
    state = PROCESSING;
    description = what;
  }

  void succeeded(String what) {
    state = SUCCEEDED;
    description = what;
  }

  /**
   * The spec is not acted on ({@link SpecGate}): the description says why, so that a user
   * waiting for the reconcile annotation sees it; the state of the last run is kept.
   */
  void held(String why) {
    state = state == null ? PROCESSING : state;
    description = "spec not reconciled: " + why;
  }

  void error(String code, String text) {
    state = ERROR;
    description = text;
    LastError e = new LastError();
    e.setCode(code);
    e.setDescription(text);
    e.setObservedAt(now.toString());
    errors.add(e);
  }

  List<LastError> errors() {
    return List.copyOf(errors);
  }

  /** The lastOperation; its time only moves when state or description change. */
  LastOperation lastOperation() {
    if (state == null) {
      return null;
    }
    LastOperation prev = etcd.getStatus() == null ? null : etcd.getStatus().getLastOperation();
    boolean unchanged = prev != null && Objects.equals(prev.getState(), state)
        && Objects.equals(prev.getDescription(), description);
    LastOperation op = new LastOperation();
    op.setType(etcd.getStatus() == null || etcd.getStatus().getObservedGeneration() == null
        ? "Create" : "Reconcile");
    if (unchanged && prev.getType() != null) {
      op.setType(prev.getType());
    }
    op.setState(state);
    op.setDescription(description);
    op.setRunID(unchanged ? prev.getRunID() : Long.toHexString(now.toEpochMilli()));
    op.setLastUpdateTime(unchanged ? prev.getLastUpdateTime() : now.toString());
    return op;
  }
}
