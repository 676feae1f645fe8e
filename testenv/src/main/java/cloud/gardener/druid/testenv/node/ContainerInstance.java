package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.process.ManagedProcess;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One container of a pod on this node: its process (restarted as the pod's restartPolicy
 * says, with exponential backoff from 250 ms up to 10 s), probes and reported status.
 */
final class ContainerInstance {

  private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
  /** Bounds the wait for a stopped container's last lines; its whole group is dead by then. */
  private static final Duration LOG_DRAIN = Duration.ofSeconds(5);

  private final String podKey;
  private final Container spec;
  private final List<String> argv;
  private final Probes.ExecContext exec;
  private final ContainerLog log;
  private final ProcessLedger ledger;
  private final Runnable release;
  private ManagedProcess process;
  private Instant startedAt;
  private int restartCount;
  private ContainerState lastTerminated;
  private ContainerState terminated;
  private Instant restartAt;
  private ProbeState readiness;
  private ProbeState liveness;
  private ProbeState startup;
  private String waitingReason = "ContainerCreating";

  ContainerInstance(String podKey, Container spec, List<String> argv, Probes.ExecContext exec,
      ContainerLog log, ProcessLedger ledger) {
    this(podKey, spec, argv, exec, log, ledger, () -> { });
  }

  /** {@code release} frees what a container runtime keeps after the process ended (runc state). */
  ContainerInstance(String podKey, Container spec, List<String> argv, Probes.ExecContext exec,
      ContainerLog log, ProcessLedger ledger, Runnable release) {
    this.release = release;
    this.podKey = podKey;
    this.spec = spec;
    this.argv = argv;
    this.exec = exec;
    this.log = log;
    this.ledger = ledger;
  }

  String name() {
    return spec.getName();
  }

  Container spec() {
    return spec;
  }

  void start() {
    release.run(); // a previous run's leftovers
    Path output = log.startRun(restartCount, "log-" + podKey + "/" + name());
    try {
      process = ManagedProcess.start(podKey + "/" + name(), argv, exec.env(),
          exec.workingDir(), output, ledger);
    } catch (RuntimeException e) {
      log.abandonRun(output);
      throw e;
    }
    startedAt = Instant.now();
    terminated = null;
    restartAt = null;
    waitingReason = null;
    readiness = spec.getReadinessProbe() == null ? null : new ProbeState(spec.getReadinessProbe(), startedAt);
    liveness = spec.getLivenessProbe() == null ? null : new ProbeState(spec.getLivenessProbe(), startedAt);
    startup = spec.getStartupProbe() == null ? null : new ProbeState(spec.getStartupProbe(), startedAt);
  }

  boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** Notices an exit of the process; returns true when it newly exited. */
  boolean checkExited() {
    if (process == null || process.isAlive() || terminated != null) {
      return false;
    }
    int code = process.exitCode().orElse(-1);
    process.stop(Duration.ZERO); // reap anything the process left behind in its group
    log.awaitWritten(LOG_DRAIN);
    release.run();
    terminated = terminatedState(code);
    return true;
  }

  /** Schedules a restart after the backoff of this restart count. */
  void scheduleRestart() {
    long millis = Math.min(MAX_BACKOFF.toMillis(), 250L << Math.min(restartCount, 10));
    restartAt = Instant.now().plusMillis(millis);
    waitingReason = restartCount > 0 ? "CrashLoopBackOff" : "ContainerCreating";
  }

  boolean restartDue(Instant now) {
    return restartAt != null && !now.isBefore(restartAt);
  }

  void restart() {
    lastTerminated = terminated;
    restartCount++;
    start();
  }

  /** SIGTERM to the main process, without waiting. */
  void sendTerminate() {
    if (process != null && process.isAlive()) {
      process.terminate();
    }
  }

  /** SIGTERM, {@code grace}, SIGKILL; the container then counts as terminated. */
  void stop(Duration grace) {
    if (process != null) {
      int code = process.stop(grace);
      log.awaitWritten(LOG_DRAIN);
      release.run();
      if (terminated == null) {
        terminated = terminatedState(code);
      }
    }
    restartAt = null;
  }

  Integer exitCode() {
    return terminated == null ? null : terminated.getTerminated().getExitCode();
  }

  boolean isTerminated() {
    return terminated != null;
  }

  boolean isRestartPending() {
    return restartAt != null;
  }

  /** Runs the probes that are due; returns true when liveness failed (restart needed). */
  boolean probe(Instant now, String podIp) {
    if (!isRunning()) {
      return false;
    }
    if (startup != null && !Boolean.TRUE.equals(startup.result())) {
      runIfDue(startup, now, podIp);
      return Boolean.FALSE.equals(startup.result());
    }
    if (readiness != null) {
      runIfDue(readiness, now, podIp);
    }
    if (liveness != null) {
      runIfDue(liveness, now, podIp);
      return Boolean.FALSE.equals(liveness.result());
    }
    return false;
  }

  private void runIfDue(ProbeState state, Instant now, String podIp) {
    if (state.due(now)) {
      boolean ok;
      try {
        ok = Probes.run(state.probe(), state.timeout(), podIp, spec, exec);
      } catch (RuntimeException e) {
        ok = false;
      }
      state.record(ok, Instant.now());
    }
  }

  boolean isStarted() {
    return isRunning() && (startup == null || Boolean.TRUE.equals(startup.result()));
  }

  boolean isReady() {
    return isStarted() && (readiness == null || Boolean.TRUE.equals(readiness.result()));
  }

  long pid() {
    return process == null ? -1 : process.pid();
  }

  ContainerStatus status() {
    ContainerState state = isRunning()
        ? new ContainerStateBuilder().withNewRunning().withStartedAt(startedAt.toString())
            .endRunning().build()
        : terminated != null && restartAt == null ? terminated
        : new ContainerStateBuilder().withNewWaiting().withReason(waitingReason).endWaiting().build();
    return new ContainerStatusBuilder()
        .withName(name())
        .withImage(spec.getImage())
        .withImageID(spec.getImage())
        .withContainerID(process == null ? null : "druid-local://" + process.pid())
        .withReady(isReady())
        .withStarted(isStarted())
        .withRestartCount(restartCount)
        .withState(state)
        .withLastState(lastTerminated == null ? new ContainerState() : lastTerminated)
        .build();
  }

  private ContainerState terminatedState(int code) {
    return new ContainerStateBuilder().withNewTerminated()
        .withExitCode(code)
        .withReason(code == 0 ? "Completed" : "Error")
        .withStartedAt(startedAt == null ? null : startedAt.toString())
        .withFinishedAt(Instant.now().toString())
        .withContainerID(process == null ? null : "druid-local://" + process.pid())
        .endTerminated().build();
  }

  Map<String, String> env() {
    return exec.env();
  }
}
