package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's work for one pod, on its own thread: set up volumes and environment, refuse
 * non-loopback configuration, run init containers then containers as processes, restart them
 * per restartPolicy, run probes, report status, and on deletion terminate gracefully and
 * remove the pod object.
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
  private final List<ContainerInstance> containers = new ArrayList<>();
  private final List<ContainerInstance> initContainers = new ArrayList<>();
  private volatile String podIp;
  private volatile boolean ready;
  private PodStatus lastReported;
  private String waitingMessage;

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
    return containers.stream().map(ContainerInstance::pid).filter(p -> p > 0).toList();
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
      initContainers.forEach(c -> c.stop(Duration.ZERO));
      containers.forEach(c -> c.stop(Duration.ZERO));
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
        setUp(pod);
        return true;
      } catch (PodVolumes.NotReady e) {
        reportWaiting(pod, "ContainerCreating", e.getMessage());
      } catch (KubernetesClientException e) {
        // e.g. a token request in a namespace being deleted: retried until the pod goes
        LOG.debug("setting up pod {} failed, retrying: {}", key, e.getMessage());
        containers.clear();
        initContainers.clear();
      } catch (ConfigError e) {
        if (!e.getMessage().equals(waitingMessage)) {
          PodEvents.record(node.client(), pod, "Warning", "Failed", e.getMessage());
        }
        reportWaiting(pod, e.reason, e.getMessage());
      }
      pause(Duration.ofMillis(500));
    }
  }

  private void setUp(Pod pod) {
    String ns = pod.getMetadata().getNamespace();
    Path podDir = node.workDir().resolve("pods").resolve(ns + "_" + pod.getMetadata().getName()
        + "_" + uid.substring(0, 8));
    Path root = podDir.resolve("root");
    PodVolumes volumes = new PodVolumes(node.client(), pod, podDir);
    volumes.prepare();
    String ip = node.addresses().addressOf(ns, pod.getMetadata().getName());
    PodEnvironment environment = new PodEnvironment(node.client(), pod, ip, node.apiServerPort());
    Map<String, String> checked = new LinkedHashMap<>(volumes.configTexts());
    List<ContainerInstance> inits = new ArrayList<>();
    List<ContainerInstance> mains = new ArrayList<>();
    for (Container c : listOf(pod.getSpec().getInitContainers())) {
      inits.add(instance(pod, c, volumes, environment, root, checked));
    }
    for (Container c : pod.getSpec().getContainers()) {
      mains.add(instance(pod, c, volumes, environment, root, checked));
    }
    LoopbackGuard.describeFirst(checked).ifPresent(message -> {
      throw new ConfigError("CreateContainerConfigError", message);
    });
    initContainers.addAll(inits);
    containers.addAll(mains);
    podIp = ip;
  }

  private ContainerInstance instance(Pod pod, Container c, PodVolumes volumes,
      PodEnvironment environment, Path root, Map<String, String> checked) {
    ImageRuntime runtime = node.runtimeFor(c.getImage()).orElseThrow(() -> new ConfigError(
        "ErrImagePull", "no local runtime for image " + c.getImage()));
    if (runtime instanceof OciImage oci) {
      return ociInstance(pod, c, oci, volumes, environment, root, checked);
    }
    MountPaths mounts = volumes.mountsFor(c, root);
    Map<String, String> env = new LinkedHashMap<>(runtime.imageEnv());
    env.putAll(environment.forContainer(c, mounts, root));
    List<String> command = mounts.rewrite(expand(listOf(c.getCommand()), env));
    List<String> args = mounts.rewrite(expand(listOf(c.getArgs()), env));
    String where = "container " + c.getName();
    listOf(c.getEnv()).forEach(v -> checked.put(where + " env " + v.getName(),
        String.valueOf(env.get(v.getName()))));
    checked.put(where + " command", String.join(" ", command));
    checked.put(where + " args", String.join(" ", args));
    Path log = node.logsDir().resolve(pod.getMetadata().getNamespace() + "_"
        + pod.getMetadata().getName() + "_" + c.getName() + ".log");
    return new ContainerInstance(key, c, runtime.commandLine(command, args),
        new Probes.ExecContext(runtime, mounts, env, root), log, node.ledger());
  }

  /** A container of an OCI image: its own paths, so nothing is rewritten; runc runs it. */
  private ContainerInstance ociInstance(Pod pod, Container c, OciImage oci, PodVolumes volumes,
      PodEnvironment environment, Path root, Map<String, String> checked) {
    MountPaths mounts = volumes.mountsFor(c, root);
    Map<String, String> env = environment.forContainer(c, new MountPaths(List.of()), root);
    List<String> command = expand(listOf(c.getCommand()), env);
    List<String> args = expand(listOf(c.getArgs()), env);
    String where = "container " + c.getName();
    listOf(c.getEnv()).forEach(v -> checked.put(where + " env " + v.getName(),
        String.valueOf(env.get(v.getName()))));
    checked.put(where + " command", String.join(" ", command));
    checked.put(where + " args", String.join(" ", args));
    String id = (pod.getMetadata().getNamespace() + "_" + pod.getMetadata().getName() + "_"
        + c.getName() + "_" + pod.getMetadata().getUid().substring(0, 8))
        .replaceAll("[^A-Za-z0-9_.-]", "-");
    OciBundle bundle = oci.bundle(new OciBundle.Request(id, node.workDir().resolve("runc"),
        root.getParent().resolve("oci").resolve(c.getName()), command, args, env,
        mounts.mounts(), OciSecurity.readOnlyMounts(pod, c), OciSecurity.runAsUser(pod, c),
        OciSecurity.runAsGroup(pod, c),
        Optional.ofNullable(pod.getSpec().getHostname()).orElse(pod.getMetadata().getName()),
        List.of(node.workDir(), Path.of(System.getProperty("java.io.tmpdir")))));
    Path log = node.logsDir().resolve(pod.getMetadata().getNamespace() + "_"
        + pod.getMetadata().getName() + "_" + c.getName() + ".log");
    return new ContainerInstance(key, c, bundle.argv(),
        new Probes.ExecContext(oci, mounts, env, root), log, node.ledger(), bundle.release());
  }

  private static List<String> expand(List<String> values, Map<String, String> env) {
    return values.stream().map(v -> PodEnvironment.expand(v, env)).toList();
  }

  /** Runs init containers one after the other; false if the pod went away or failed. */
  private boolean runInitContainers() {
    for (ContainerInstance init : initContainers) {
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
    containers.forEach(ContainerInstance::start);
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
        terminate(pod);
        removePod(pod);
        return;
      }
      String restartPolicy = Optional.ofNullable(pod.getSpec().getRestartPolicy()).orElse("Always");
      Instant now = Instant.now();
      for (ContainerInstance c : containers) {
        superviseContainer(c, restartPolicy, now, gracePeriod(pod));
      }
      report(phase(restartPolicy));
      pause(TICK);
    }
  }

  private void superviseContainer(ContainerInstance c, String restartPolicy, Instant now,
      Duration grace) {
    if (c.checkExited() && restarts(restartPolicy, c.exitCode())) {
      c.scheduleRestart();
    }
    if (c.restartDue(now)) {
      c.restart();
    }
    if (c.probe(now, podIp)) { // liveness failed
      LOG.debug("liveness probe of {}/{} failed; restarting", key, c.name());
      c.stop(grace);
      if (restarts(restartPolicy, c.exitCode())) {
        c.scheduleRestart();
      }
    }
  }

  private static boolean restarts(String restartPolicy, Integer exitCode) {
    return switch (restartPolicy) {
      case "Never" -> false;
      case "OnFailure" -> exitCode == null || exitCode != 0;
      default -> true;
    };
  }

  private String phase(String restartPolicy) {
    boolean allDone = containers.stream().allMatch(c -> c.isTerminated() && !c.isRestartPending());
    if (!allDone || "Always".equals(restartPolicy)) {
      return "Running";
    }
    return containers.stream().allMatch(c -> c.exitCode() == 0) ? "Succeeded" : "Failed";
  }

  /** SIGTERM to every container, up to the grace period in total, then SIGKILL. */
  private void terminate(Pod pod) {
    Duration grace = gracePeriod(pod);
    Instant deadline = Instant.now().plus(grace);
    containers.forEach(ContainerInstance::sendTerminate);
    for (ContainerInstance c : containers) {
      Duration left = Duration.between(Instant.now(), deadline);
      c.stop(left.isNegative() ? Duration.ZERO : left);
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
    boolean containersReady = containers.stream().allMatch(ContainerInstance::isReady);
    boolean initialized = initContainers.stream().allMatch(ContainerInstance::isTerminated);
    write(new PodStatusReport.Observation(phase, podIp, initialized,
        containersReady && "Running".equals(phase),
        containers.stream().map(ContainerInstance::status).toList(),
        initContainers.stream().map(ContainerInstance::status).toList(), waitingMessage));
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

  private static <T> List<T> listOf(List<T> list) {
    return list == null ? List.of() : list;
  }

  /** A pod whose configuration the simulator refuses to run. */
  private static final class ConfigError extends RuntimeException {
    private final String reason;

    ConfigError(String reason, String message) {
      super(message);
      this.reason = reason;
    }
  }
}
