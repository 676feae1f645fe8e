package cloud.gardener.druid.operator.compaction;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.operator.compaction.CompactionDecision.Action;
import cloud.gardener.druid.operator.compaction.CompactionDecision.Failures;
import cloud.gardener.druid.operator.compaction.CompactionDecision.JobState;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.model.CompactionJobBuilder;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.status.Conditions;
import cloud.gardener.druid.operator.status.StatusWriter;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upstream's compaction controller: watches each Etcd with a backup store, its snapshot
 * leases and its compaction Job, and runs {@code druid agent compact} as a Job
 * ({@link CompactionJobBuilder}) when the delta events since the last full snapshot reach
 * {@code spec.backup.snapshotCompaction.eventsThreshold} (else the operator's
 * {@code --etcd-events-threshold}). One Job per Etcd at a time; a finished Job is counted in
 * {@link CompactionMetrics} and deleted; failed Jobs back off ({@link CompactionDecision}).
 * Registered only with {@code --enable-backup-compaction}. On the Etcd it writes only the
 * condition {@code LastSnapshotCompactionSucceeded} ({@link CompactionCondition}), which the
 * Etcd reconciler carries over.
 */
@ControllerConfiguration(name = "etcd-compaction")
public final class CompactionReconciler implements Reconciler<Etcd> {

  private static final Logger LOG = LoggerFactory.getLogger(CompactionReconciler.class);
  static final Duration RETRY = Duration.ofSeconds(10);
  static final Duration FULL_SNAPSHOT_TIMEOUT = Duration.ofMinutes(10);

  private final KubernetesClient client;
  private final AgentClient agents;
  private final OperatorSettings settings;
  private final CompactionMetrics metrics;
  private final Clock clock;
  private final Map<String, Failures> failures = new ConcurrentHashMap<>();
  private final StatusWriter statusWriter;

  public CompactionReconciler(KubernetesClient client, AgentClient agents,
      OperatorSettings settings, CompactionMetrics metrics, Clock clock) {
    this.client = client;
    this.agents = agents;
    this.settings = settings;
    this.metrics = metrics;
    this.clock = clock;
    this.statusWriter = new StatusWriter(client);
  }

  @Override
  public UpdateControl<Etcd> reconcile(Etcd etcd, Context<Etcd> context) {
    String namespace = etcd.getMetadata().getNamespace();
    String name = etcd.getMetadata().getName();
    try {
      if (etcd.getMetadata().getDeletionTimestamp() != null || !EtcdDefaults.hasStore(etcd)) {
        deleteJob(etcd);
        metrics.forget(namespace, name);
        failures.remove(namespace + "/" + name);
        return UpdateControl.noUpdate();
      }
      return act(etcd, CompactionDecision.decide(facts(etcd)));
    } catch (KubernetesClientException e) {
      LOG.warn("compaction of Etcd {}/{}: {}", namespace, name, e.getMessage());
      return UpdateControl.<Etcd>noUpdate().rescheduleAfter(RETRY);
    }
  }

  private CompactionDecision.Facts facts(Etcd etcd) {
    String namespace = etcd.getMetadata().getNamespace();
    EtcdNames names = EtcdNames.of(etcd);
    String jobName = CompactionJobBuilder.jobName(etcd);
    Optional<JobState> job = Optional.ofNullable(
        client.batch().v1().jobs().inNamespace(namespace).withName(jobName).get())
        .map(j -> CompactionDecision.stateOf(j, clock.instant()));
    boolean podLeft = job.isEmpty() && !client.pods().inNamespace(namespace)
        .withLabel("job-name", jobName).list().getItems().isEmpty();
    return new CompactionDecision.Facts(job, podLeft,
        holderRevision(namespace, names.fullSnapshotLease()),
        holderRevision(namespace, names.deltaSnapshotLease()),
        CompactionJobBuilder.eventsThreshold(etcd, settings),
        CompactionJobBuilder.fullSnapshotThreshold(etcd, settings),
        failures.getOrDefault(namespace + "/" + names.etcd(), Failures.NONE), clock.instant());
  }

  private UpdateControl<Etcd> act(Etcd etcd, Action action) {
    String namespace = etcd.getMetadata().getNamespace();
    String name = etcd.getMetadata().getName();
    if (action instanceof Action.AwaitJob) {
      metrics.jobRunning(namespace, name, true);
      return UpdateControl.noUpdate();
    }
    if (action instanceof Action.AwaitCleanup cleanup) {
      LOG.debug("compaction of Etcd {}/{}: {}", namespace, name, cleanup.why());
      return UpdateControl.<Etcd>noUpdate().rescheduleAfter(RETRY);
    }
    if (action instanceof Action.FinishJob finish) {
      JobState.Finished outcome = finish.outcome();
      metrics.jobRunning(namespace, name, false);
      metrics.jobFinished(namespace, outcome.succeeded(),
          CompactionDecision.failureReason(outcome, jobPod(etcd)), outcome.duration());
      failures.merge(namespace + "/" + name, Failures.NONE.after(outcome, clock.instant()),
          (old, next) -> old.after(outcome, clock.instant()));
      LOG.info("compaction job of Etcd {}/{} {} after {} s{}", namespace, name,
          outcome.succeeded() ? "succeeded" : "failed", outcome.duration().toSeconds(),
          outcome.reason() == null ? "" : " (" + outcome.reason() + ")");
      record(etcd, CompactionCondition.ofJob(namespace, CompactionJobBuilder.jobName(etcd),
          outcome, jobPod(etcd)));
      deleteJob(etcd);
      return UpdateControl.<Etcd>noUpdate().rescheduleAfter(RETRY);
    }
    if (action instanceof Action.Idle idle) {
      idle.deltaEvents().ifPresent(events -> metrics.deltaEvents(namespace, name, events));
      metrics.jobRunning(namespace, name, false);
      return UpdateControl.noUpdate();
    }
    if (action instanceof Action.BackOff backOff) {
      metrics.deltaEvents(namespace, name, backOff.deltaEvents());
      LOG.info("compaction of Etcd {}/{}: {} delta events, backing off {} s after failed jobs",
          namespace, name, backOff.deltaEvents(), backOff.remaining().toSeconds());
      return UpdateControl.<Etcd>noUpdate().rescheduleAfter(backOff.remaining());
    }
    if (action instanceof Action.TriggerFullSnapshot trigger) {
      return triggerFullSnapshot(etcd, trigger);
    }
    long events = ((Action.CreateJob) action).deltaEvents();
    metrics.deltaEvents(namespace, name, events);
    try {
      client.resource(CompactionJobBuilder.build(etcd, settings)).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return UpdateControl.noUpdate(); // created by an earlier reconcile whose answer was lost
      }
      metrics.jobNotCreated(namespace);
      throw e;
    }
    metrics.jobRunning(namespace, name, true);
    LOG.info("compaction of Etcd {}/{}: {} delta events since the last full snapshot, job {}"
        + " started", namespace, name, events, CompactionJobBuilder.jobName(etcd));
    return UpdateControl.noUpdate();
  }

  /** Upstream's alternative to a compaction that would hardly finish. */
  private UpdateControl<Etcd> triggerFullSnapshot(Etcd etcd, Action.TriggerFullSnapshot trigger) {
    String namespace = etcd.getMetadata().getNamespace();
    String name = etcd.getMetadata().getName();
    metrics.deltaEvents(namespace, name, trigger.deltaEvents());
    Optional<AgentEndpoint> leader = leaderAgent(etcd);
    if (leader.isEmpty()) {
      LOG.info("compaction of Etcd {}/{}: {}, but no leader to take a full snapshot", namespace,
          name, trigger.why());
      return UpdateControl.<Etcd>noUpdate().rescheduleAfter(RETRY);
    }
    try {
      long revision = agents.withActionTimeout(FULL_SNAPSHOT_TIMEOUT)
          .fullSnapshot(leader.get(), false);
      metrics.fullSnapshotTriggered(namespace, true);
      failures.remove(namespace + "/" + name);
      record(etcd, CompactionCondition.ofFullSnapshot(namespace, name, Optional.empty()));
      LOG.info("compaction of Etcd {}/{}: {}; full snapshot up to revision {} taken instead",
          namespace, name, trigger.why(), revision);
      return UpdateControl.noUpdate();
    } catch (RuntimeException e) {
      metrics.fullSnapshotTriggered(namespace, false);
      record(etcd, CompactionCondition.ofFullSnapshot(namespace, name,
          Optional.of(String.valueOf(e.getMessage()))));
      LOG.warn("compaction of Etcd {}/{}: {}; the full snapshot failed: {}", namespace, name,
          trigger.why(), e.getMessage());
      return UpdateControl.<Etcd>noUpdate().rescheduleAfter(RETRY);
    }
  }

  /** The agent of etcd's leader: the member whose lease holder says {@code :Leader}. */
  private Optional<AgentEndpoint> leaderAgent(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    String namespace = etcd.getMetadata().getNamespace();
    int replicas = etcd.getSpec().getReplicas() == null ? 0 : etcd.getSpec().getReplicas();
    for (int i = 0; i < replicas; i++) {
      Lease lease = client.leases().inNamespace(namespace).withName(names.memberLease(i)).get();
      String holder = lease == null || lease.getSpec() == null ? null
          : lease.getSpec().getHolderIdentity();
      if (holder != null && holder.endsWith(":Leader")) {
        Pod pod = client.pods().inNamespace(namespace).withName(names.member(i)).get();
        return pod == null ? Optional.empty() : AgentEndpoint.of(pod,
            EtcdDefaults.agentPort(etcd), EtcdDefaults.agentTls(etcd));
      }
    }
    return Optional.empty();
  }

  private Optional<Pod> jobPod(Etcd etcd) {
    return client.pods().inNamespace(etcd.getMetadata().getNamespace())
        .withLabel("job-name", CompactionJobBuilder.jobName(etcd)).list().getItems().stream()
        .findFirst();
  }

  private OptionalLong holderRevision(String namespace, String lease) {
    Lease found = client.leases().inNamespace(namespace).withName(lease).get();
    String holder = found == null || found.getSpec() == null ? null
        : found.getSpec().getHolderIdentity();
    try {
      return holder == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(holder));
    } catch (NumberFormatException e) {
      LOG.warn("lease {}/{}: holder identity {} is not a revision", namespace, lease, holder);
      return OptionalLong.empty();
    }
  }

  /**
   * Writes {@code condition} into the Etcd's status, replacing the previous one. A failed write
   * is logged, not retried: the outcome was counted in the metrics and is not repeated.
   */
  private void record(Etcd etcd, Condition condition) {
    try {
      Etcd fresh = client.resources(Etcd.class).inNamespace(etcd.getMetadata().getNamespace())
          .withName(etcd.getMetadata().getName()).get();
      if (fresh != null) {
        statusWriter.decideAndWrite(fresh, e -> withCondition(e.getStatus(), condition));
      }
    } catch (KubernetesClientException | StatusWriter.StaleStatusException e) {
      LOG.warn("Etcd {}/{}: condition {} not written: {}", etcd.getMetadata().getNamespace(),
          etcd.getMetadata().getName(), condition.getType(), e.getMessage());
    }
  }

  private EtcdStatus withCondition(EtcdStatus status, Condition condition) {
    EtcdStatus next = status == null ? new EtcdStatus() : Serialization.clone(status);
    List<Condition> previous = Optional.ofNullable(next.getConditions()).orElse(List.of());
    Condition stamped = Conditions.stamp(Conditions.of(condition.getType(),
        condition.getStatus(), condition.getReason(), condition.getMessage()), previous,
        clock.instant());
    List<Condition> conditions = new ArrayList<>(previous.stream()
        .filter(c -> !condition.getType().equals(c.getType())).toList());
    conditions.add(stamped);
    next.setConditions(conditions);
    return next;
  }

  /** Foreground deletion, as upstream: the Job is gone only once its pod is. */
  private void deleteJob(Etcd etcd) {
    client.batch().v1().jobs().inNamespace(etcd.getMetadata().getNamespace())
        .withName(CompactionJobBuilder.jobName(etcd))
        .withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
  }

  @Override
  public List<EventSource<?, Etcd>> prepareEventSources(EventSourceContext<Etcd> context) {
    InformerEventSource<Job, Etcd> jobs = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Job.class, Etcd.class)
            .withName("compaction-jobs")
            .withLabelSelector(Labels.COMPONENT + "=" + CompactionJobBuilder.COMPONENT)
            .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Etcd.class))
            .build(), context);
    InformerEventSource<Lease, Etcd> leases = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Lease.class, Etcd.class)
            .withName("compaction-snapshot-leases")
            .withLabelSelector(Labels.MANAGED_BY + "=" + Labels.MANAGED_BY_VALUE)
            .withGenericFilter(l -> l.getMetadata().getName().endsWith("-snap"))
            .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Etcd.class))
            .build(), context);
    return List.of(jobs, leases);
  }
}
