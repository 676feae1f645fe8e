package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.Finalizers;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.component.Component;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.EtcdObserver;
import cloud.gardener.druid.operator.rollout.MemberRollout;
import cloud.gardener.druid.operator.rollout.RolloutAction;
import cloud.gardener.druid.operator.status.EtcdStatusComputer;
import cloud.gardener.druid.operator.status.StatusWriter;
import cloud.gardener.druid.api.Labels;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
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

/**
 * Reconciles an Etcd: (1) decide whether the spec may be acted on, (2) validate it, (3) sync
 * the components in a fixed order, (4) take one step of the member rollout, (5) observe again
 * and write the whole status from that observation, (6) drop the reconcile annotation once
 * the rollout is done. Each reconcile takes at most one disruptive step; events from pods,
 * PVCs and leases trigger the next.
 */
@ControllerConfiguration(name = "etcd", finalizerName = Finalizers.ETCD,
    generationAwareEventProcessing = false)
public final class EtcdReconciler implements Reconciler<Etcd>, Cleaner<Etcd> {

  static final Duration STEP_REQUEUE = Duration.ofSeconds(2);
  static final Duration IDLE_REQUEUE = Duration.ofSeconds(30);

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
  private final OperatorSettings settings;

  public EtcdReconciler(KubernetesClient client, List<Component> components,
      EtcdObserver observer, MemberRollout rollout, RolloutExecutor executor,
      EtcdCleanup cleanup, boolean autoReconcile, Clock clock, EventRecorder events,
      OperatorSettings settings) {
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
    this.settings = settings;
  }

  @Override
  public UpdateControl<Etcd> reconcile(Etcd etcd, Context<Etcd> context) {
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
    // a step that changed nothing leaves the cluster as observed before it: no second look
    ClusterSnapshot after = step.filter(Step::changedNothing).map(Step::observed)
        .orElseGet(() -> observer.observe(etcd));
    VolumeOperation volumeOperation = step.flatMap(Step::recorded)
        .orElse(after.volumes().recorded().orElse(null));
    EtcdStatus status = statusWriter.decideAndWrite(etcd, e -> EtcdStatusComputer.compute(
        after, desired, e.getStatus(), observedGeneration, op.lastOperation(), op.errors(),
        volumeOperation)).getStatus();
    volumeEvents.announce(etcd, status);
    boolean done = step.map(Step::action).filter(RolloutAction.Done.class::isInstance).isPresent();
    if (done && SpecGate.hasReconcileAnnotation(etcd)) {
      removeReconcileAnnotation(etcd);
    }
    return UpdateControl.<Etcd>noUpdate().rescheduleAfter(done || !gate.reconcileSpec()
        ? IDLE_REQUEUE : STEP_REQUEUE);
  }

  /**
   * The rollout step taken, the cluster as observed right before it, the volume operation it
   * asks to record, and whether it changed nothing (done, or waiting without a change).
   */
  private record Step(RolloutAction action, ClusterSnapshot observed,
      Optional<VolumeOperation> recorded, boolean changedNothing) {
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
    for (Component component : components) {
      try {
        component.sync(etcd);
      } catch (RuntimeException e) {
        op.error("ERR_SYNC_" + component.name(), "syncing " + component.name().toLowerCase()
            + " failed: " + e.getMessage());
        return Optional.empty();
      }
    }
    ClusterSnapshot before = observer.observe(etcd);
    RolloutAction action = rollout.next(before, desired);
    StepHook.reached(etcd, action);
    RolloutExecutor.Outcome outcome;
    try {
      outcome = executor.execute(before, action);
    } catch (RuntimeException e) {
      op.error("ERR_ROLLOUT", action.describe() + " failed: " + e.getMessage());
      return Optional.of(new Step(action, before, Optional.empty(), false));
    }
    if (outcome instanceof RolloutExecutor.Outcome.Waiting w) {
      op.processing(action.describe() + ": waiting for " + w.what());
      return Optional.of(new Step(action, before, Optional.empty(), !w.changed()));
    }
    Optional<VolumeOperation> recorded = ((RolloutExecutor.Outcome.Done) outcome).recorded();
    StepHook.executed(etcd, action);
    if (action instanceof RolloutAction.Done) {
      op.succeeded("Etcd reconciled: " + action.describe());
    } else {
      op.processing(action.describe());
    }
    return Optional.of(new Step(action, before, recorded,
        action instanceof RolloutAction.Done));
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

  /** Pods, PVCs and leases we manage trigger a reconcile of their owning Etcd. */
  @Override
  public List<EventSource<?, Etcd>> prepareEventSources(EventSourceContext<Etcd> context) {
    return List.of(owned(context, Pod.class), owned(context, PersistentVolumeClaim.class),
        owned(context, Lease.class));
  }

  private static <R extends HasMetadata> EventSource<?, Etcd> owned(
      EventSourceContext<Etcd> context, Class<R> type) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(type, Etcd.class)
        .withName(type.getSimpleName())
        .withLabelSelector(Labels.MANAGED_BY + "=" + Labels.MANAGED_BY_VALUE)
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Etcd.class))
        .build(), context);
  }

  @Override
  public DeleteControl cleanup(Etcd etcd, Context<Etcd> context) {
    return cleanup.run(etcd) ? DeleteControl.defaultDelete()
        : DeleteControl.noFinalizerRemoval().rescheduleAfter(STEP_REQUEUE.toMillis());
  }
}
