package cloud.gardener.druid.operator.drill;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.operator.model.BackupDrillJobBuilder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The restore drill Jobs of Etcds (addition): one per Etcd at a time, started by the
 * {@code verifyBackups} EtcdOpsTask and by the schedule. A finished Job stays (its pod's log
 * says what the drill did) until the next drill replaces it; the report is read from the
 * verification lease the drill writes.
 */
public final class DrillJobs {

  /** A drill Job's state. */
  public enum State { ABSENT, RUNNING, FINISHED }

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final Clock clock;

  public DrillJobs(KubernetesClient client, OperatorSettings settings, Clock clock) {
    this.client = client;
    this.settings = settings;
    this.clock = clock;
  }

  public State state(Etcd etcd) {
    Job job = jobs(etcd).withName(BackupDrillJobBuilder.jobName(etcd)).get();
    return job == null ? State.ABSENT : finished(job) ? State.FINISHED : State.RUNNING;
  }

  /**
   * Deletes a finished drill Job (foreground: gone with its pod) and starts a new one; returns
   * when it was created. A Job that still runs is left alone (false).
   */
  public boolean start(Etcd etcd, Duration deadline) {
    String name = BackupDrillJobBuilder.jobName(etcd);
    Job existing = jobs(etcd).withName(name).get();
    if (existing != null) {
      if (!finished(existing)) {
        return false;
      }
      jobs(etcd).withName(name).withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
      return false; // created once the old one is gone: the caller polls again
    }
    try {
      client.resource(BackupDrillJobBuilder.build(etcd, settings, deadline)).create();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return false;
      }
      throw e;
    }
  }

  /** When the Etcd's drill Job (running or finished) was created; empty without one. */
  public Optional<Instant> jobCreated(Etcd etcd) {
    Job job = jobs(etcd).withName(BackupDrillJobBuilder.jobName(etcd)).get();
    return job == null || job.getMetadata().getCreationTimestamp() == null ? Optional.empty()
        : Optional.of(Instant.parse(job.getMetadata().getCreationTimestamp()));
  }

  /** The newest report in the Etcd's verification lease; empty before the first. */
  public Optional<DrillReport> report(Etcd etcd) {
    Lease lease = client.leases().inNamespace(etcd.getMetadata().getNamespace())
        .withName(BackupDrillJobBuilder.leaseName(etcd)).get();
    String json = lease == null || lease.getMetadata().getAnnotations() == null ? null
        : lease.getMetadata().getAnnotations().get(DrillReport.LEASE_ANNOTATION);
    try {
      return json == null ? Optional.empty() : Optional.of(DrillReport.parse(json));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** A report written after {@code since}. */
  public Optional<DrillReport> reportAfter(Etcd etcd, Instant since) {
    return report(etcd).filter(r -> r.finishedAt() != null
        && !Instant.parse(r.finishedAt()).isBefore(since));
  }

  public Instant now() {
    return clock.instant();
  }

  static boolean finished(Job job) {
    JobStatus s = job.getStatus();
    if (s == null) {
      return false;
    }
    boolean done = (s.getSucceeded() != null && s.getSucceeded() > 0)
        || (s.getFailed() != null && s.getFailed() > 0);
    return done || s.getConditions() != null && s.getConditions().stream().anyMatch(c ->
        ("Complete".equals(c.getType()) || "Failed".equals(c.getType()))
            && "True".equals(c.getStatus()));
  }

  private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<Job,
      io.fabric8.kubernetes.api.model.batch.v1.JobList,
      io.fabric8.kubernetes.client.dsl.ScalableResource<Job>> jobs(Etcd etcd) {
    return client.batch().v1().jobs().inNamespace(etcd.getMetadata().getNamespace());
  }
}
