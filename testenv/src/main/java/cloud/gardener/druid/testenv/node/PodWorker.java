package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's work for one pod's lifecycle, on its own thread: wait until its containers can
 * be set up ({@link PodContainers}: volumes, environment, the loopback check), run init
 * containers then the containers, supervise them, report status, and on deletion terminate
 * them gracefully and remove the pod object.
 */
final class PodWorker implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(PodWorker.class);
  private static final Duration TICK = Duration.ofMillis(100);

  private final NodeContext node;
  private final String uid;
  private final String key;
  private final AtomicReference<Pod> latest;
  private final LinkedBlockingQueue<Boolean> wakeups = new LinkedBlockingQueue<>();
  private final PodStatusReport report = new PodStatusReport();
  private volatile PodContainers containers;
  private volatile String podIp;
  private volatile boolean ready;
  private PodStatus lastReported;
  private String waitingMessage;
  private volatile Instant volumeRefreshDue;

  PodWorker(NodeContext node, Pod pod) {
    this.node = node;
    this.uid = pod.getMetadata().getUid();
    this.key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    this.latest = new AtomicReference<>(pod);
  }

  /** A newer version of the pod, or null when it is gone from the API server. */
  void update(Pod pod) {
    latest.set(pod);
    wakeups.offer(Boolean.TRUE);
  }

  /**
   * A Secret or ConfigMap changed: if this pod mounts it, its files get the new contents
   * {@link NodeContext#volumeRefresh()} later (a kubelet's delay, not at once).
   */
  void volumeSourceChanged(String namespace, String kind, String name) {
    PodContainers running = containers;
    Pod pod = latest.get();
    if (pod == null || !pod.getMetadata().getNamespace().equals(namespace)
        || running != null && !running.volumes().uses(kind, name)) {
      return; // while containers are set up, any change in the namespace may concern them
    }
    synchronized (this) {
      if (volumeRefreshDue == null) {
        volumeRefreshDue = Instant.now().plus(node.volumeRefresh());
      }
    }
  }

  String uid() {
    return uid;
  }

  /** The pod's loopback address once assigned. */
  String podIp() {
    return podIp;
  }

  boolean isReady() {
    return ready;
  }

  /** Pids of the running containers, for tests and audits. */
  List<Long> pids() {
    PodContainers running = containers;
    return running == null ? List.of() : running.pids();
  }

  @Override
  public void run() {
    Thread.currentThread().setName("pod-" + key);
    try {
      if (prepare() && runInitContainers()) {
        startContainers();
        supervise();
      }
    } catch (RuntimeException e) {
      LOG.warn("pod {} failed in the node simulator", key, e);
    } finally {
      if (containers != null) {
        containers.stopAll();
      }
      podIp = null;
      ready = false;
      node.onPodChange().run();
    }
  }

  /** Waits until volumes and configuration are in place; false if the pod went away. */
  private boolean prepare() {
    while (true) {
      Pod pod = latest.get();
      if (pod == null) {
        return false;
      }
      if (isDeleting(pod)) {
        removePod(pod);
        return false;
      }
      try {
        containers = PodContainers.create(node, pod, key);
        podIp = containers.podIp();
        return true;
      } catch (PodVolumes.NotReady e) {
        reportWaiting(pod, "ContainerCreating", e.getMessage());
      } catch (KubernetesClientException e) {
        // e.g. a token request in a namespace being deleted: retried until the pod goes
        LOG.debug("setting up pod {} failed, retrying: {}", key, e.getMessage());
      } catch (PodContainers.ConfigError e) {
        if (!e.getMessage().equals(waitingMessage)) {
          PodEvents.record(node.client(), pod, "Warning", "Failed", e.getMessage());
        }
        reportWaiting(pod, e.reason(), e.getMessage());
      }
      pause(Duration.ofMillis(500));
    }
  }

  /** Runs init containers one after the other; false if the pod went away or failed. */
  private boolean runInitContainers() {
    for (ContainerInstance init : containers.initContainers()) {
      init.start();
      while (true) {
        Pod pod = latest.get();
        if (pod == null || isDeleting(pod)) {
          init.stop(gracePeriod(pod));
          if (pod != null) {
            removePod(pod);
          }
          return false;
        }
        if (init.checkExited() && init.exitCode() != 0) {
          if ("Never".equals(pod.getSpec().getRestartPolicy())) {
            report("Failed");
            waitUntilGone();
            return false;
          }
          init.scheduleRestart();
        }
        if (init.restartDue(Instant.now())) {
          init.restart();
        }
        if (init.isTerminated() && init.exitCode() == 0) {
          break;
        }
        report("Pending");
        pause(TICK);
      }
    }
    return true;
  }

  private void startContainers() {
    containers.start();
    waitingMessage = null;
    report("Running");
  }

  private void supervise() {
    while (true) {
      Pod pod = latest.get();
      if (pod == null) {
        return;
      }
      if (isDeleting(pod)) {
        containers.terminate(gracePeriod(pod));
        removePod(pod);
        return;
      }
      String restartPolicy = Optional.ofNullable(pod.getSpec().getRestartPolicy()).orElse("Always");
      containers.supervise(restartPolicy, Instant.now(), gracePeriod(pod));
      refreshVolumesIfDue(pod);
      report(containers.phase(restartPolicy));
      pause(TICK);
    }
  }

  private void refreshVolumesIfDue(Pod pod) {
    Instant due = volumeRefreshDue;
    if (due == null || Instant.now().isBefore(due)) {
      return;
    }
    synchronized (this) {
      volumeRefreshDue = null;
    }
    try {
      List<String> refreshed = containers.volumes().refresh();
      if (!refreshed.isEmpty()) {
        LOG.info("pod {}: new contents of volumes {}", key, refreshed);
      }
    } catch (KubernetesClientException e) {
      LOG.debug("refreshing the volumes of {} failed, retrying: {}", key, e.getMessage());
      volumeRefreshDue = Instant.now().plus(node.volumeRefresh());
    } catch (IllegalStateException e) {
      PodEvents.record(node.client(), pod, "Warning", "FailedMount", e.getMessage());
    }
  }

  private static Duration gracePeriod(Pod pod) {
    Long seconds = pod == null ? null : pod.getMetadata().getDeletionGracePeriodSeconds();
    if (seconds == null && pod != null) {
      seconds = pod.getSpec().getTerminationGracePeriodSeconds();
    }
    return Duration.ofSeconds(seconds == null ? 30 : seconds);
  }

  private void removePod(Pod pod) {
    try {
      node.client().pods().inNamespace(pod.getMetadata().getNamespace())
          .withName(pod.getMetadata().getName()).withGracePeriod(0).delete();
    } catch (KubernetesClientException e) {
      LOG.debug("final delete of {} failed: {}", key, e.getMessage());
    }
  }

  private void waitUntilGone() {
    while (latest.get() != null && !isDeleting(latest.get())) {
      pause(Duration.ofMillis(500));
    }
    if (latest.get() != null) {
      removePod(latest.get());
    }
  }

  private void reportWaiting(Pod pod, String reason, String message) {
    waitingMessage = message;
    List<ContainerStatus> waiting = pod.getSpec().getContainers().stream()
        .map(c -> new io.fabric8.kubernetes.api.model.ContainerStatusBuilder()
            .withName(c.getName()).withImage(c.getImage()).withImageID("")
            .withReady(false).withStarted(false).withRestartCount(0)
            .withNewState().withNewWaiting().withReason(reason).withMessage(message)
            .endWaiting().endState().build())
        .toList();
    write(new PodStatusReport.Observation("Pending", null, false, false, waiting, List.of(),
        message));
  }

  private void report(String phase) {
    write(new PodStatusReport.Observation(phase, podIp, containers.initialized(),
        containers.allReady() && "Running".equals(phase), containers.statuses(),
        containers.initStatuses(), waitingMessage));
  }

  private void write(PodStatusReport.Observation observation) {
    PodStatus status = report.build(observation);
    if (status.equals(lastReported)) {
      return;
    }
    Pod pod = latest.get();
    if (pod == null) {
      return;
    }
    Pod patch = new PodBuilder().withNewMetadata().withName(pod.getMetadata().getName())
        .withNamespace(pod.getMetadata().getNamespace()).endMetadata().withStatus(status).build();
    try {
      node.client().pods().inNamespace(pod.getMetadata().getNamespace()).resource(patch)
          .patchStatus();
      lastReported = status;
      boolean wasReady = ready;
      ready = observation.containersReady();
      if (wasReady != ready || lastReported.getPodIP() != null) {
        node.onPodChange().run();
      }
    } catch (KubernetesClientException e) {
      LOG.debug("status of {} not written: {}", key, e.getMessage());
    }
  }

  private static boolean isDeleting(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null;
  }

  private void pause(Duration duration) {
    try {
      wakeups.poll(duration.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      latest.set(null);
    }
  }
}
