package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The container processes of one pod: built from its spec on prepared volumes and environment
 * (refusing non-loopback configuration), started, restarted per restartPolicy and liveness
 * probe, and terminated. {@link PodWorker} drives them through the pod's lifecycle.
 */
final class PodContainers {

  private static final Logger LOG = LoggerFactory.getLogger(PodContainers.class);

  private final String key;
  private final List<ContainerInstance> initContainers;
  private final List<ContainerInstance> containers;
  private final String podIp;
  private final PodVolumes volumes;

  private PodContainers(String key, List<ContainerInstance> initContainers,
      List<ContainerInstance> containers, String podIp, PodVolumes volumes) {
    this.key = key;
    this.volumes = volumes;
    this.initContainers = initContainers;
    this.containers = containers;
    this.podIp = podIp;
  }

  /**
   * Prepares the pod's volumes and environment and builds its containers.
   *
   * @throws PodVolumes.NotReady while a volume's source is not there yet
   * @throws ConfigError when the simulator refuses to run the pod's configuration
   */
  static PodContainers create(NodeContext node, Pod pod, String key) {
    String ns = pod.getMetadata().getNamespace();
    Path podDir = node.workDir().resolve("pods").resolve(ns + "_" + pod.getMetadata().getName()
        + "_" + pod.getMetadata().getUid().substring(0, 8));
    Path root = podDir.resolve("root");
    PodVolumes volumes = new PodVolumes(node.client(), pod, podDir);
    volumes.prepare();
    String ip = node.addresses().addressOf(ns, pod.getMetadata().getName());
    PodEnvironment environment = new PodEnvironment(node.client(), pod, ip, node.apiServerPort());
    Map<String, String> checked = new LinkedHashMap<>(volumes.configTexts());
    Builder builder = new Builder(node, pod, key, volumes, environment, root, checked);
    List<ContainerInstance> inits = new ArrayList<>();
    List<ContainerInstance> mains = new ArrayList<>();
    for (Container c : listOf(pod.getSpec().getInitContainers())) {
      inits.add(builder.instance(c));
    }
    for (Container c : pod.getSpec().getContainers()) {
      mains.add(builder.instance(c));
    }
    LoopbackGuard.describeFirst(checked).ifPresent(message -> {
      throw new ConfigError("CreateContainerConfigError", message);
    });
    return new PodContainers(key, List.copyOf(inits), List.copyOf(mains), ip, volumes);
  }

  /** The pod's volumes, for refreshing Secret and ConfigMap contents. */
  PodVolumes volumes() {
    return volumes;
  }

  /** The pod's loopback address. */
  String podIp() {
    return podIp;
  }

  List<ContainerInstance> initContainers() {
    return initContainers;
  }

  /** Pids of the running containers. */
  List<Long> pids() {
    return containers.stream().map(ContainerInstance::pid).filter(p -> p > 0).toList();
  }

  void start() {
    containers.forEach(ContainerInstance::start);
  }

  /** One supervision tick: restarts exited containers per policy, runs probes. */
  void supervise(String restartPolicy, Instant now, Duration grace) {
    for (ContainerInstance c : containers) {
      superviseContainer(c, restartPolicy, now, grace);
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

  /** The pod phase the containers' states make under {@code restartPolicy}. */
  String phase(String restartPolicy) {
    boolean allDone = containers.stream().allMatch(c -> c.isTerminated() && !c.isRestartPending());
    if (!allDone || "Always".equals(restartPolicy)) {
      return "Running";
    }
    return containers.stream().allMatch(c -> c.exitCode() == 0) ? "Succeeded" : "Failed";
  }

  /** SIGTERM to every container, up to the grace period in total, then SIGKILL. */
  void terminate(Duration grace) {
    Instant deadline = Instant.now().plus(grace);
    containers.forEach(ContainerInstance::sendTerminate);
    for (ContainerInstance c : containers) {
      Duration left = Duration.between(Instant.now(), deadline);
      c.stop(left.isNegative() ? Duration.ZERO : left);
    }
  }

  /** Kills whatever still runs (the worker ends). */
  void stopAll() {
    initContainers.forEach(c -> c.stop(Duration.ZERO));
    containers.forEach(c -> c.stop(Duration.ZERO));
  }

  boolean allReady() {
    return containers.stream().allMatch(ContainerInstance::isReady);
  }

  boolean initialized() {
    return initContainers.stream().allMatch(ContainerInstance::isTerminated);
  }

  List<ContainerStatus> statuses() {
    return containers.stream().map(ContainerInstance::status).toList();
  }

  List<ContainerStatus> initStatuses() {
    return initContainers.stream().map(ContainerInstance::status).toList();
  }

  static <T> List<T> listOf(List<T> list) {
    return list == null ? List.of() : list;
  }

  /** Builds one container of a pod, recording what it runs for the loopback check. */
  private record Builder(NodeContext node, Pod pod, String key, PodVolumes volumes,
      PodEnvironment environment, Path root, Map<String, String> checked) {

    ContainerInstance instance(Container c) {
      ImageRuntime runtime = node.runtimeFor(c.getImage()).orElseThrow(() -> new ConfigError(
          "ErrImagePull", "no local runtime for image " + c.getImage()));
      if (runtime instanceof OciImage oci) {
        return ociInstance(c, oci);
      }
      MountPaths mounts = volumes.mountsFor(c, root);
      Map<String, String> env = new LinkedHashMap<>(runtime.imageEnv());
      env.putAll(environment.forContainer(c, mounts, root));
      List<String> command = mounts.rewrite(expand(listOf(c.getCommand()), env));
      List<String> args = mounts.rewrite(expand(listOf(c.getArgs()), env));
      check(c, env, command, args);
      return new ContainerInstance(key, c, runtime.commandLine(command, args),
          new Probes.ExecContext(runtime, mounts, env, root), log(c), node.ledger());
    }

    /** A container of an OCI image: its own paths, so nothing is rewritten; runc runs it. */
    private ContainerInstance ociInstance(Container c, OciImage oci) {
      MountPaths mounts = volumes.mountsFor(c, root);
      Map<String, String> env = environment.forContainer(c, new MountPaths(List.of()), root);
      List<String> command = expand(listOf(c.getCommand()), env);
      List<String> args = expand(listOf(c.getArgs()), env);
      check(c, env, command, args);
      String id = (pod.getMetadata().getNamespace() + "_" + pod.getMetadata().getName() + "_"
          + c.getName() + "_" + pod.getMetadata().getUid().substring(0, 8))
          .replaceAll("[^A-Za-z0-9_.-]", "-");
      OciBundle bundle = oci.bundle(new OciBundle.Request(id, node.workDir().resolve("runc"),
          root.getParent().resolve("oci").resolve(c.getName()), command, args, env,
          mounts.mounts(), OciSecurity.readOnlyMounts(pod, c), OciSecurity.runAsUser(pod, c),
          OciSecurity.runAsGroup(pod, c),
          Optional.ofNullable(pod.getSpec().getHostname()).orElse(pod.getMetadata().getName()),
          List.of(node.workDir(), Path.of(System.getProperty("java.io.tmpdir")))));
      return new ContainerInstance(key, c, bundle.argv(),
          new Probes.ExecContext(oci, mounts, env, root), log(c), node.ledger(),
          bundle.release());
    }

    private void check(Container c, Map<String, String> env, List<String> command,
        List<String> args) {
      String where = "container " + c.getName();
      listOf(c.getEnv()).forEach(v -> checked.put(where + " env " + v.getName(),
          String.valueOf(env.get(v.getName()))));
      checked.put(where + " command", String.join(" ", command));
      checked.put(where + " args", String.join(" ", args));
    }

    private ContainerLog log(Container c) {
      return node.logs().open(pod, c.getName());
    }

    private static List<String> expand(List<String> values, Map<String, String> env) {
      return values.stream().map(v -> PodEnvironment.expand(v, env)).toList();
    }
  }

  /** A pod whose configuration the simulator refuses to run. */
  static final class ConfigError extends RuntimeException {
    private final String reason;

    ConfigError(String reason, String message) {
      super(message);
      this.reason = reason;
    }

    /** The container waiting reason it is reported with. */
    String reason() {
      return reason;
    }
  }
}
