package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.Finalizers;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.BackgroundCalls;
import cloud.gardener.druid.operator.etcd.EventRecorder;
import cloud.gardener.druid.operator.etcd.RolloutExecutor;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.EtcdObserver;
import cloud.gardener.druid.operator.observe.RaftIndexHealth;
import cloud.gardener.druid.operator.status.StatusWriter;
import cloud.gardener.druid.operator.drill.DrillJobs;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.timetravel.TimeTravelJobs;
import cloud.gardener.druid.operator.task.AgentOperation.Deadline;
import cloud.gardener.druid.operator.task.AgentOperation.TaskFailure;
import cloud.gardener.druid.operator.task.AgentOperation.Failed;
import cloud.gardener.druid.operator.task.AgentOperation.Result;
import cloud.gardener.druid.operator.task.AgentOperation.Succeeded;
import cloud.gardener.druid.operator.task.TaskAdmission.Admit;
import cloud.gardener.druid.operator.task.TaskAdmission.Decision;
import cloud.gardener.druid.operator.task.TaskAdmission.Reject;
import cloud.gardener.druid.operator.task.TaskAdmission.Wait;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reconciles an EtcdOpsTask through its lifecycle, the only writer of its status: (1) record
 * Pending, (2) admit or reject ({@link TaskAdmission}), (3) execute — snapshots and
 * defragmentation in the background ({@link BackgroundCalls}; the progress it reports becomes
 * {@code lastOperation.description} when it changed), volume tasks by watching the Etcd
 * reconciler's {@code status.volumeOperation} ({@link VolumeHandshake}), (4) delete the task
 * {@code ttlSecondsAfterFinished} after it finished. Every reconcile starts from the task read
 * fresh from the API server; Etcd changes and finished runs trigger reconciles. A run lives in
 * this process only: after an operator restart an InProgress snapshot or defragmentation runs
 * again (both are safe to repeat) until the deadline counted from {@code startedAt}.
 */
@ControllerConfiguration(name = "etcdopstask", finalizerName = Finalizers.ETCD_OPS_TASK)
public final class EtcdOpsTaskReconciler
    implements Reconciler<EtcdOpsTask>, Cleaner<EtcdOpsTask>, AutoCloseable {

  static final Duration WAIT_REQUEUE = Duration.ofSeconds(2);
  static final Duration RUN_POLL = Duration.ofSeconds(5);
  static final Duration VOLUME_POLL = Duration.ofSeconds(30);

  private final KubernetesClient client;
  private final StatusWriter statusWriter;
  private final EventRecorder events;
  private final BackgroundCalls runs;
  private final Map<TaskKind, AgentOperation> operations;
  private final Clock clock;
  private final String runId = UUID.randomUUID().toString();
  /** Runs that finished or reported new progress: their task is reconciled at once. */
  private final SimpleInboundEventSource<EtcdOpsTask> finishedRuns =
      new SimpleInboundEventSource<>("finished-runs");

  public EtcdOpsTaskReconciler(KubernetesClient client, AgentClient agents,
      EtcdObserver observer, RolloutExecutor executor, Clock clock, EventRecorder events,
      DrillJobs drills, OperatorSettings settings) {
    this.client = client;
    this.statusWriter = new StatusWriter(client);
    this.events = events;
    this.runs = new BackgroundCalls(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "ops-task");
      t.setDaemon(true);
      return t;
    }), clock);
    this.clock = clock;
    Function<Etcd, ClusterSnapshot> observe = e -> observer.observe(
        readEtcd(e.getMetadata().getNamespace(), e.getMetadata().getName()).orElse(e));
    this.operations = Map.of(
        TaskKind.ON_DEMAND_SNAPSHOT, new OnDemandSnapshotOperation(agents, observe, events),
        TaskKind.DEFRAGMENT, new DefragmentOperation(executor, observe,
            new DefragmentPlan(new RaftIndexHealth(AgentApi.MAX_RAFT_LAG)), events),
        TaskKind.VERIFY_BACKUPS, new VerifyBackupsOperation(drills, events),
        TaskKind.RETIRE_SOURCE_MEMBERS, new RetireSourceMembersOperation(executor, observe,
            events),
        TaskKind.RESTORE_INTO, new RestoreIntoOperation(client, new TimeTravelJobs(client),
            settings, events),
        TaskKind.UNDELETE, new UndeleteOperation(new TimeTravelJobs(client), settings, events));
  }

  @Override
  public UpdateControl<EtcdOpsTask> reconcile(EtcdOpsTask cached, Context<EtcdOpsTask> context) {
    Optional<EtcdOpsTask> fresh = Optional.ofNullable(client.resources(EtcdOpsTask.class)
        .inNamespace(cached.getMetadata().getNamespace())
        .withName(cached.getMetadata().getName()).get());
    if (fresh.isEmpty() || fresh.get().getMetadata().getDeletionTimestamp() != null) {
      return UpdateControl.noUpdate();
    }
    EtcdOpsTask task = fresh.get();
    try {
      return switch (TaskTransitions.phase(task)) {
        case NEW -> admit(write(task, TaskTransitions.pending(task.getStatus(),
            "admission checks pending", runId, clock.instant())));
        case ADMIT -> admit(task);
        case EXECUTE -> execute(task);
        case FINISHED -> expire(task);
      };
    } catch (StatusWriter.StaleStatusException e) {
      return UpdateControl.<EtcdOpsTask>noUpdate().rescheduleAfter(StatusWriter.REDECIDE);
    }
  }

  private UpdateControl<EtcdOpsTask> admit(EtcdOpsTask task) {
    Optional<Etcd> etcd = readEtcd(task);
    List<EtcdOpsTask> tasks = client.resources(EtcdOpsTask.class)
        .inNamespace(task.getMetadata().getNamespace()).list().getItems();
    Decision decision = TaskAdmission.decide(task, etcd, tasks);
    Instant now = clock.instant();
    if (decision instanceof Reject r) {
      EtcdOpsTask written = write(task, TaskTransitions.rejected(task.getStatus(), r.errors(),
          runId, now));
      events.warning(written, "Rejected", TaskTransitions.describe(r.errors()));
      return afterFinish(written);
    }
    if (decision instanceof Wait w) {
      String before = description(task);
      EtcdOpsTask written = write(task, TaskTransitions.pending(task.getStatus(), w.reason(),
          runId, now));
      if (!w.reason().equals(before)) {
        events.normal(written, "Waiting", w.reason());
      }
      return UpdateControl.<EtcdOpsTask>noUpdate().rescheduleAfter(WAIT_REQUEUE);
    }
    TaskKind kind = ((Admit) decision).kind();
    String description = kind.byEtcdReconciler()
        ? "admitted; Etcd " + task.getSpec().getEtcdName() + " carries out " + kind.field()
        : "admitted; " + kind.field() + " of Etcd " + task.getSpec().getEtcdName() + " running";
    EtcdOpsTask written = write(task, TaskTransitions.inProgress(task.getStatus(), description,
        runId, now));
    events.normal(written, "Started", description);
    return execute(written);
  }

  private UpdateControl<EtcdOpsTask> execute(EtcdOpsTask task) {
    TaskKind kind = TaskKind.single(task).orElseThrow();
    Optional<Etcd> etcd = readEtcd(task);
    if (kind.byEtcdReconciler()) {
      return VolumeHandshake.outcome(task, kind, etcd)
          .map(o -> o.succeeded() ? succeed(task, o.description()) : fail(task, o.errors()))
          .orElseGet(() -> UpdateControl.<EtcdOpsTask>noUpdate().rescheduleAfter(VOLUME_POLL));
    }
    String key = task.getMetadata().getUid();
    Optional<Result> result = runs.<Result>poll(key).map(AgentOperation::resultOf);
    if (result.isPresent()) {
      return result.get() instanceof Succeeded s
          ? succeed(task, s.description())
          : fail(task, List.of(((Failed) result.get()).error()));
    }
    if (!runs.running(key)) {
      if (etcd.isEmpty()) {
        return fail(task, List.of(new TaskError(TaskError.ETCD_NOT_FOUND, "spec.etcdName: Etcd \""
            + task.getSpec().getEtcdName() + "\" was deleted while the task was in progress")));
      }
      AgentOperation op = operations.get(kind);
      Instant started = Instant.parse(task.getStatus().getStartedAt());
      Instant deadline = started.plus(op.timeout(task, etcd.get()));
      ResourceID id = ResourceID.fromResource(task);
      runs.start(key, progress -> run(op, task, etcd.get(), new Deadline(deadline, clock),
          progress), deadline, () -> finishedRuns.propagateEvent(id));
    } else {
      Optional<String> progress = runs.progress(key);
      if (progress.isPresent() && !progress.get().equals(description(task))) {
        write(task, TaskTransitions.inProgress(task.getStatus(), progress.get(), runId,
            clock.instant()));
      }
    }
    Duration left = runs.untilDeadline(key);
    return UpdateControl.<EtcdOpsTask>noUpdate().rescheduleAfter(
        left.compareTo(RUN_POLL) < 0 ? left.plusMillis(100) : RUN_POLL);
  }

  private static String description(EtcdOpsTask task) {
    return task.getStatus().getLastOperation() == null ? null
        : task.getStatus().getLastOperation().getDescription();
  }

  private static Result run(AgentOperation op, EtcdOpsTask task, Etcd etcd, Deadline deadline,
      Consumer<String> progress) {
    try {
      if (deadline.passed()) {
        throw new TaskFailure(TaskError.TIMEOUT, "the operation's deadline " + deadline.at()
            + " passed before it could start");
      }
      return new Succeeded(op.run(task, etcd, deadline, progress));
    } catch (TaskFailure e) {
      return new Failed(e.error());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Failed(new TaskError(TaskError.TIMEOUT,
          "the operation was cancelled at its deadline " + deadline.at()));
    }
  }

  private UpdateControl<EtcdOpsTask> succeed(EtcdOpsTask task, String description) {
    EtcdOpsTask written = write(task, TaskTransitions.succeeded(task.getStatus(), description,
        runId, clock.instant()));
    events.normal(written, "Succeeded", description);
    return afterFinish(written);
  }

  private UpdateControl<EtcdOpsTask> fail(EtcdOpsTask task, List<TaskError> errors) {
    EtcdOpsTask written = write(task, TaskTransitions.failed(task.getStatus(), errors, runId,
        clock.instant()));
    events.warning(written, "Failed", TaskTransitions.describe(errors));
    return afterFinish(written);
  }

  private UpdateControl<EtcdOpsTask> afterFinish(EtcdOpsTask task) {
    Duration left = TaskTransitions.untilExpiry(task, clock.instant());
    return UpdateControl.<EtcdOpsTask>noUpdate().rescheduleAfter(
        left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left);
  }

  private UpdateControl<EtcdOpsTask> expire(EtcdOpsTask task) {
    if (TaskTransitions.untilExpiry(task, clock.instant()).compareTo(Duration.ZERO) > 0) {
      return afterFinish(task);
    }
    String description = "deleting the task: ttlSecondsAfterFinished ("
        + TaskTransitions.ttlSeconds(task) + ") passed since it finished";
    EtcdOpsTask written = write(task, TaskTransitions.cleanup(task.getStatus(), description,
        runId, clock.instant()));
    events.normal(written, "Expired", description);
    client.resource(written).delete();
    return UpdateControl.noUpdate();
  }

  @Override
  public DeleteControl cleanup(EtcdOpsTask task, Context<EtcdOpsTask> context) {
    runs.cancel(task.getMetadata().getUid());
    return DeleteControl.defaultDelete();
  }

  private EtcdOpsTask write(EtcdOpsTask task, EtcdOpsTaskStatus status) {
    return statusWriter.write(task, status);
  }

  private Optional<Etcd> readEtcd(EtcdOpsTask task) {
    String name = task.getSpec() == null ? null : task.getSpec().getEtcdName();
    return name == null || name.isEmpty() ? Optional.empty()
        : readEtcd(task.getMetadata().getNamespace(), name);
  }

  private Optional<Etcd> readEtcd(String namespace, String name) {
    return Optional.ofNullable(client.resources(Etcd.class).inNamespace(namespace)
        .withName(name).get());
  }

  /**
   * Changes of an Etcd (its volume operation, its deletion) reconcile its unfinished tasks;
   * finished runs reconcile their task at once.
   */
  @Override
  public List<EventSource<?, EtcdOpsTask>> prepareEventSources(
      EventSourceContext<EtcdOpsTask> context) {
    InformerEventSource<Etcd, EtcdOpsTask> etcds = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Etcd.class, EtcdOpsTask.class)
            .withName("Etcd")
            .withSecondaryToPrimaryMapper(etcd -> context.getPrimaryCache()
                .list(etcd.getMetadata().getNamespace(), t -> t.getSpec() != null
                    && etcd.getMetadata().getName().equals(t.getSpec().getEtcdName())
                    && (t.getStatus() == null || !t.getStatus().isFinished()))
                .map(ResourceID::fromResource).collect(Collectors.toSet()))
            .build(), context);
    return List.of(etcds, finishedRuns);
  }

  @Override
  public void close() {
    runs.close();
  }
}
