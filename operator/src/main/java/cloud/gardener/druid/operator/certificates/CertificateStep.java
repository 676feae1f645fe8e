package cloud.gardener.druid.operator.certificates;

import cloud.gardener.druid.api.v1alpha1.CertificateRotation;

/** The one next step of the peer certificates of an Etcd ({@link RotationPlanner}). */
public sealed interface CertificateStep {

  /** What lastOperation says while this step holds the rollout. */
  String describe();

  /** Calls the method of {@code handler} for this step's type. */
  <R> R accept(Handler<R> handler);

  /** Handles every step type: one added without a method here does not compile. */
  interface Handler<R> {
    R create(Create step);

    R record(Record step);

    R give(Give step);

    R hold(Hold step);

    R settled(Settled step);
  }

  /** Whether the rollout is not done while this is the step. */
  default boolean holds() {
    return true;
  }

  /** The Secret the members are given does not exist yet: a copy of the user's. */
  record Create(TlsMaterial material) implements CertificateStep {
    public <R> R accept(Handler<R> handler) {
      return handler.create(this);
    }

    public String describe() {
      return "giving the members the peer certificates of the Secrets the spec names";
    }
  }

  /** The step about to be taken, recorded in status before it is (resumable by an operator). */
  record Record(CertificateRotation rotation) implements CertificateStep {
    public <R> R accept(Handler<R> handler) {
      return handler.record(this);
    }

    public String describe() {
      return "recording " + rotation.getPhase() + ": " + rotation.getMessage();
    }
  }

  /** The members are given {@code material} (a restart follows when its bundle is another). */
  record Give(TlsMaterial material, String what) implements CertificateStep {
    public <R> R accept(Handler<R> handler) {
      return handler.give(this);
    }

    public String describe() {
      return what;
    }
  }

  /** Nothing to write now; {@code reason} is what the next step waits for. */
  record Hold(String reason) implements CertificateStep {
    public <R> R accept(Handler<R> handler) {
      return handler.hold(this);
    }

    public String describe() {
      return "waiting: " + reason;
    }
  }

  /** The members are given what the spec names: nothing to do. */
  record Settled() implements CertificateStep {
    public <R> R accept(Handler<R> handler) {
      return handler.settled(this);
    }

    public String describe() {
      return "the peer certificates are as the spec names them";
    }

    @Override
    public boolean holds() {
      return false;
    }
  }
}
