package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.operator.observe.MemberObservation;
import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/**
 * The one deleter and creator of member pods. A member pod is deleted only as observed: by
 * uid (a precondition the API server checks; fabric8 offers only a resourceVersion one), so a
 * pod that took the name after the observation is never deleted by a decision made without
 * it.
 */
final class MemberPods {

  private static final long POLL_MILLIS = 100;

  private final KubernetesClient client;

  MemberPods(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Deletes the member's observed pod unless it is already terminating or none was observed.
   * False when another pod holds the name now (the next observation decides about it).
   */
  boolean delete(String ns, MemberObservation member) {
    if (member.pod().isEmpty() || member.pod().get().getMetadata().getDeletionTimestamp() != null) {
      return true;
    }
    String uid = member.pod().get().getMetadata().getUid();
    DeleteOptions options = new DeleteOptionsBuilder().withNewPreconditions().withUid(uid)
        .endPreconditions().build();
    HttpResponse<String> response = RawPodRequest.send(client, "DELETE", ns, member.name(),
        "application/json", options);
    if (response.isSuccessful() || response.code() == 404) {
      return true;
    }
    if (response.code() == 409) {
      return false;
    }
    throw new KubernetesClientException("deleting pod " + member.name() + " failed with HTTP "
        + response.code() + ": " + response.body(), response.code(), null);
  }

  /** Whether the pod with {@code uid} is gone, asking again until {@code wait} passed. */
  boolean gone(String ns, String name, String uid, Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
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
  void createIfAbsent(Pod pod) {
    try {
      client.resource(pod).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }
}
