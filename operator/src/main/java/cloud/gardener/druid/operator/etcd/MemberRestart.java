package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.MemberPodBuilder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.action.RestartReason;
import cloud.gardener.druid.operator.action.RolloutAction.RestartMember;
import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Executes a {@link RestartMember}: deletes the member's pod (only the one observed, by uid),
 * waits a bounded moment for it to go and creates it again from the desired spec. A pod that
 * takes longer leaves the restart {@link RolloutExecutor.Outcome.Waiting}; the planner plans
 * the same restart on the next observation, which then finds the pod terminating or gone.
 */
final class MemberRestart {

  /** How long one reconcile waits for the deleted pod to go before it answers Waiting. */
  static final Duration POD_GONE_WAIT = Duration.ofSeconds(3);
  private static final long POLL_MILLIS = 100;

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final EventRecorder events;
  private final Duration podGoneWait;

  MemberRestart(KubernetesClient client, OperatorSettings settings, EventRecorder events,
      Duration podGoneWait) {
    this.client = client;
    this.settings = settings;
    this.events = events;
    this.podGoneWait = podGoneWait;
  }

  RolloutExecutor.Outcome run(ClusterSnapshot s, RestartMember action) {
    Etcd etcd = s.etcd();
    String ns = etcd.getMetadata().getNamespace();
    Optional<Pod> observed = s.members().get(action.ordinal()).pod();
    if (observed.isPresent()) {
      String uid = observed.get().getMetadata().getUid();
      if (observed.get().getMetadata().getDeletionTimestamp() == null) {
        events.normal(etcd, "MemberUpdating", action.describe());
        if (!deleteIfStill(ns, action.name(), uid)) {
          // another pod holds the name since the observation: the next one decides about it
          return new RolloutExecutor.Outcome.Done(Optional.empty());
        }
      }
      if (!gone(ns, action.name(), uid)) {
        return new RolloutExecutor.Outcome.Waiting(action.name() + "'s pod to terminate", true);
      }
    }
    createIfAbsent(client, MemberPodBuilder.build(etcd, settings, action.ordinal(), EtcdDefaults.replicas(etcd)));
    events.normal(etcd, "MemberRestarted", "started member " + action.name()
        + " again from the desired spec (" + RestartReason.describe(action.reasons()) + ")");
    return new RolloutExecutor.Outcome.Done(Optional.empty());
  }

  /**
   * Deletes the pod if it is still the one with {@code uid} (a precondition the API server
   * checks; fabric8 offers only a resourceVersion one). False when another pod holds the name.
   */
  private boolean deleteIfStill(String ns, String name, String uid) {
    DeleteOptions options = new DeleteOptionsBuilder().withNewPreconditions().withUid(uid)
        .endPreconditions().build();
    HttpResponse<String> response = RawPodRequest.send(client, "DELETE", ns, name,
        "application/json", options);
    if (response.isSuccessful() || response.code() == 404) {
      return true;
    }
    if (response.code() == 409) {
      return false;
    }
    throw new KubernetesClientException("deleting pod " + name + " failed with HTTP "
        + response.code() + ": " + response.body(), response.code(), null);
  }

  /** Whether the pod with {@code uid} is gone, asking again until {@link #podGoneWait} passed. */
  private boolean gone(String ns, String name, String uid) {
    long deadline = System.nanoTime() + podGoneWait.toNanos();
    while (true) {
      Pod now = client.pods().inNamespace(ns).withName(name).get();
      if (now == null || !Objects.equals(now.getMetadata().getUid(), uid)) {
        return true;
      }
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /** Creates the pod; one of that name already there (created by an earlier step) is fine. */
  static void createIfAbsent(KubernetesClient client, Pod pod) {
    try {
      client.resource(pod).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }
}
