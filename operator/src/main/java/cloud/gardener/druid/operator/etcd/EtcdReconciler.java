package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.Finalizers;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import cloud.gardener.druid.operator.certificates.ServedCertificates;
import cloud.gardener.druid.operator.capacity.CapacityAction;
import cloud.gardener.druid.operator.component.Component;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.model.TrustedCas;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.EtcdObserver;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.rollout.MemberRollout;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.status.EtcdStatusComputer;
import cloud.gardener.druid.operator.status.StatusWriter;
import cloud.gardener.druid.operator.status.VolumeRecorder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Reconciles an Etcd: (1) decide whether the spec may be acted on, (2) validate it, (3) sync
 * the components in a fixed order, (4) take one step of the member rollout, (5) observe again
 * and write the whole status from that observation, (6) drop the reconcile annotation once
 * the rollout is done. Each reconcile takes at most one disruptive step; events of the Etcd
 * and of everything it owns trigger the next. With nothing changing there is no timer but a
 * long jittered resync ({@link #resync}).
 */
@ControllerConfiguration(name = "etcd", finalizerName = Finalizers.ETCD,
    generationAwareEventProcessing = false)
public final class EtcdReconciler implements Reconciler<Etcd>, Cleaner<Etcd> {

  static final Duration STEP_REQUEUE = Duration.ofSeconds(2);
  /**
   * The resync of an Etcd with running members: their agents' views and the time-based
   * conditions (a lease not renewed, a backup overdue) change without an event. It reads only
   * caches and agents: no API request unless the status changed.
   */
  static final Duration RUNNING_RESYNC = Duration.ofSeconds(30);
  /** The resync of an Etcd without running members: nothing changes without an event. */
  static final Duration IDLE_RESYNC = Duration.ofMinutes(10);

  private final KubernetesClient client;
  private final List<Component> components;
  private final SpecValidation validation;
  private final EtcdObserver observer;
  private final MemberRollout rollout;
  private final RolloutExecutor executor;
  private final StatusWriter statusWriter;
  private final EtcdCleanup cleanup;
  private final boolean autoReconcile;
  private final Clock clock;
  private final VolumeEvents volumeEvents;
  private final UpstreamFieldEvents upstreamFieldEvents;
  private final OperatorSettings settings;
  private final OwnedCaches caches;
  private final VolumeRecorder volumes;
  private final CapacityStep capacity;
  private final PeerCertificateStep peerCertificates;

  public EtcdReconciler(KubernetesClient client, List<Component> components,
      EtcdObserver observer, VolumeRecorder volumes, MemberRollout rollout,
      RolloutExecutor executor,
      EtcdCleanup cleanup, boolean autoReconcile, Clock clock, EventRecorder events,
      OperatorSettings settings, OwnedCaches caches, CapacityStep capacity) {
    this.client = client;
    this.components = List.copyOf(components);
    this.validation = new SpecValidation(client);
    this.observer = observer;
    this.rollout = rollout;
    this.executor = executor;
    this.statusWriter = new StatusWriter(client);
    this.cleanup = cleanup;
    this.autoReconcile = autoReconcile;
    this.clock = clock;
    this.volumeEvents = new VolumeEvents(events);
    this.upstreamFieldEvents = new UpstreamFieldEvents(events);
    this.settings = settings;
    this.caches = caches;
    this.volumes = volumes;
    this.capacity = capacity;
    this.peerCertificates = new PeerCertificateStep(client, volumes, events,
        ServedCertificates.byHandshake(3000), clock);
  }

  @Override
  public UpdateControl<Etcd> reconcile(Etcd cached, Context<Etcd> context) {
    // the members' quota and volume size follow the capacity record: never an older one
    Etcd etcd = withTrustedCas(volumes.latest(cached));
    OperationRecord op = new OperationRecord(etcd, clock.instant());
    SpecGate gate = SpecGate.decide(etcd, autoReconcile);
    DesiredMembers desired = DesiredMembers.of(etcd, settings);
    Optional<Step> step;
    if (gate.reconcileSpec()) {
      step = reconcileSpec(etcd, desired, op);
    } else {
      op.held(gate.reason());
      step = Optional.empty();
    }
    Optional<Long> observedGeneration = step.isPresent()
        ? Optional.of(etcd.getMetadata().getGeneration()) : Optional.empty();
    // a step that changed nothing leaves the cluster as observed before it: no second look;
    // after one that wrote, the API server is read: the status must show the step's writes
    ClusterSnapshot after = step.filter(Step::changedNothing).map(Step::observed)
        .orElseGet(() -> step.isPresent() ? observer.observeFresh(etcd)
            : observer.observe(etcd));
    Etcd written = statusWriter.decideAndWrite(volumes.latest(etcd), e -> EtcdStatusComputer
        .compute(after, desired, e.getStatus(), observedGeneration, op.lastOperation(),
            op.errors()));
    EtcdStatus status = written.getStatus();
    volumeEvents.announce(etcd, status);
    upstreamFieldEvents.announce(etcd, status);
    boolean done = step.map(Step::action).filter(RolloutAction.Done.class::isInstance).isPresent();
    if (done && SpecGate.hasReconcileAnnotation(etcd)) {
      removeReconcileAnnotation(etcd);
    }
    boolean capacityActed = step.filter(Step::capacityActed).isPresent();
    return UpdateControl.<Etcd>noUpdate().rescheduleAfter(
        (done && !capacityActed) || !gate.reconcileSpec() ? resync(after) : STEP_REQUEUE);
  }

  /**
   * The Etcd with the checksum of the CA bundles its Secrets hold now (read from the API
   * server: users' Secrets are not in the operator's caches); a changed one rolls the members.
   */
  private Etcd withTrustedCas(Etcd etcd) {
    return TrustedCas.withChecksum(etcd, TrustedCas.compute(etcd, (ns, name) ->
        client.secrets().inNamespace(ns).withName(name).get()));
  }

  /** The next resync, jittered by up to 10% so the Etcds of one start spread out. */
  static Duration resync(ClusterSnapshot s) {
    Duration base = s.members().stream().anyMatch(m -> m.pod().isPresent())
        ? RUNNING_RESYNC : IDLE_RESYNC;
    return base.plusMillis(ThreadLocalRandom.current().nextLong(base.toMillis() / 10 + 1));
  }

  /**
   * The rollout step taken, the cluster as observed right before it, and whether it changed
   * nothing (done, or waiting without a change).
   */
  private record Step(RolloutAction action, ClusterSnapshot observed, boolean changedNothing,
      boolean capacityActed) {
    Step(RolloutAction action, ClusterSnapshot observed, boolean changedNothing) {
      this(action, observed, changedNothing, false);
    }
  }

  /**
   * Validates and syncs the spec and takes one rollout step. Returns the step, or empty when
   * the children could not all be written for this generation (then observedGeneration stays).
   */
  private Optional<Step> reconcileSpec(Etcd etcd, DesiredMembers desired, OperationRecord op) {
    List<SpecValidation.Problem> problems = validation.validate(etcd);
    if (!problems.isEmpty()) {
      problems.forEach(p -> op.error(p.code(), p.description()));
      return Optional.empty();
    }
    boolean withoutRuntime = !EtcdDefaults.runtimeComponentsEnabled(etcd)
        && observer.observe(etcd).members().stream().noneMatch(MemberObservation::podExists);
    for (Component component : components) {
      try {
        if (withoutRuntime && component.runtime()) {
          deleteIfPresent(component, etcd);
          continue;
        }
        component.sync(etcd);
      } catch (RuntimeException e) {
        op.error("ERR_SYNC_" + component.name(), "syncing " + component.name().toLowerCase()
            + " failed: " + e.getMessage());
        return Optional.empty();
      }
    }
    ClusterSnapshot before = observer.observe(etcd);
    RolloutAction action = rollout.next(before, desired);
    Optional<PeerCertificateStep.Outcome> certificates;
    try {
      certificates = peerCertificates.advance(etcd, before,
          action instanceof RolloutAction.Done);
    } catch (RuntimeException e) {
      op.error("ERR_PEER_CERTIFICATES", "peer certificates: " + e.getMessage());
      return Optional.of(new Step(action, before, false));
    }
    if (certificates.isPresent()) {
      // a step of the certificates holds the rollout: the predicate stays false meanwhile
      String what = "peer certificates: " + certificates.get().what();
      op.processing(what);
      return Optional.of(new Step(new RolloutAction.Wait(what), before,
          !certificates.get().wrote()));
    }
    StepHook.reached(etcd, action);
    RolloutExecutor.Outcome outcome;
    try {
      outcome = executor.execute(before, action);
    } catch (RuntimeException e) {
      op.error("ERR_ROLLOUT", action.describe() + " failed: " + e.getMessage());
      return Optional.of(new Step(action, before, false));
    }
    if (outcome instanceof RolloutExecutor.Outcome.Waiting w) {
      op.processing(action.describe() + ": waiting for " + w.what());
      return Optional.of(new Step(action, before, !w.changed()));
    }
    StepHook.executed(etcd, action);
    if (action instanceof RolloutAction.Done) {
      return Optional.of(capacityStep(before, action, op));
    }
    op.processing(action.describe());
    return Optional.of(new Step(action, before, false));
  }

  /** With the rollout done, the capacity flow may take its one step (docs/capacity.md). */
  private Step capacityStep(ClusterSnapshot before, RolloutAction done, OperationRecord op) {
    CapacityAction c;
    try {
      c = capacity.take(before);
    } catch (RuntimeException e) {
      op.error("ERR_CAPACITY", "capacity step failed: " + e.getMessage());
      return new Step(done, before, false, true);
    }
    // a capacity step changes no member's spec: the rollout stays done (a raised quota or a
    // grown volume is rolled out by the next reconciles, which then say so)
    op.succeeded("Etcd reconciled: " + done.describe()
        + (c.acts() || c instanceof CapacityAction.Hold ? "; capacity: " + c.describe() : ""));
    return new Step(done, before, !c.acts(), c.acts());
  }

  /** Runtime components go once no member pod is left: the members need them until then. */
  private static void deleteIfPresent(Component component, Etcd etcd) {
    if (!component.listExisting(etcd).isEmpty()) {
      component.delete(etcd);
    }
  }

  private void removeReconcileAnnotation(Etcd etcd) {
    client.resources(Etcd.class).inNamespace(etcd.getMetadata().getNamespace())
        .withName(etcd.getMetadata().getName()).edit(e -> {
          if (e.getMetadata().getAnnotations() != null) {
            e.getMetadata().getAnnotations().remove(Annotations.OPERATION);
            e.getMetadata().getAnnotations().remove(Annotations.LEGACY_OPERATION);
          }
          return e;
        });
  }

  /**
   * Everything the operator owns for an Etcd (and the EtcdOpsTasks naming it, and the
   * StorageClasses) triggers a reconcile of the Etcd; the same informers are the caches the
   * reconcile reads ({@link OwnedCaches}).
   */
  @Override
  public List<EventSource<?, Etcd>> prepareEventSources(EventSourceContext<Etcd> context) {
    return caches.eventSources(context);
  }

  @Override
  public DeleteControl cleanup(Etcd etcd, Context<Etcd> context) {
    if (!cleanup.run(etcd)) {
      return DeleteControl.noFinalizerRemoval().rescheduleAfter(STEP_REQUEUE.toMillis());
    }
    observer.forget(etcd);
    volumes.forget(etcd);
    validation.forget(etcd);
    return DeleteControl.defaultDelete();
  }
}
