package cloud.gardener.druid.operator.it;

import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskSpec;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The steps the ITs share: load a sample Etcd, create a task, wait for a rollout or a task
 * state, read an Etcd and what belongs to it. Every read is in the client's namespace.
 */
final class ItSupport {

  /** How long a rollout of a few members may take on a loaded machine. */
  static final Duration ROLLOUT = Duration.ofMinutes(2);
  /**
   * The lock of classes that drive a steady client load (a {@link LoadClient} or a
   * {@link ChurnWriter}): they run one at a time, beside classes that mostly wait, so that two
   * loads never share the machine's cores (docs/testing.md, "Parallel ITs").
   */
  static final String CLIENT_LOAD = "client-load";
  /** How long an EtcdOpsTask may take to reach a state. */
  static final Duration TASK = Duration.ofMinutes(3);

  private ItSupport() {
  }

  /** An Etcd of {@code examples/} (repository root from {@code druid.repoRoot}). */
  static Etcd load(String example, String namespace) throws Exception {
    Path file = Path.of(System.getProperty("druid.repoRoot", ".."), "examples", example);
    Etcd etcd = Serialization.unmarshal(Files.readString(file), Etcd.class);
    etcd.getMetadata().setNamespace(namespace);
    return etcd;
  }

  /**
   * Creates an Etcd from the 3-member example with {@code replicas}, its own store prefix and
   * {@code app} label, 2 s delta snapshots and 2Gi volumes of {@code storageClass}.
   */
  static void createEtcdWithVolumes(KubernetesClient client, TestNamespace ns, String name,
      int replicas, String storageClass) throws Exception {
    createEtcdWithVolumes(client, ns, name, replicas, storageClass, etcd -> { });
  }

  /** As above, with {@code customize} applied last (e.g. another backup store). */
  static void createEtcdWithVolumes(KubernetesClient client, TestNamespace ns, String name,
      int replicas, String storageClass, Consumer<Etcd> customize) throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName(name);
    etcd.getSpec().setReplicas(replicas);
    etcd.getSpec().setStorageClass(storageClass);
    etcd.getSpec().setStorageCapacity(new Quantity("2Gi"));
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/" + name);
    etcd.getSpec().getBackup().setDeltaSnapshotPeriod(GoDuration.parse("2s"));
    Map<String, String> labels = new HashMap<>(etcd.getSpec().getLabels());
    labels.put("app", name);
    etcd.getSpec().setLabels(labels);
    customize.accept(etcd);
    client.resource(etcd).create();
  }

  static Etcd etcd(KubernetesClient client, String name) {
    return client.resources(Etcd.class).withName(name).get();
  }

  /**
   * Waits until the rollout predicate holds for the Etcd, at most {@link #ROLLOUT}, and returns
   * the Etcd as read when it held: assert on that object, not on a later read, whose status may
   * already show something newer.
   */
  static Etcd awaitRolloutComplete(KubernetesClient client, String name) {
    return awaitRolloutComplete(client, name, ROLLOUT);
  }

  static Etcd awaitRolloutComplete(KubernetesClient client, String name, Duration atMost) {
    try {
      return await().atMost(atMost).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
          .until(() -> etcd(client, name), RolloutCompletion::isComplete);
    } catch (ConditionTimeoutException e) {
      throw new AssertionError("rollout of " + name + " did not complete in " + atMost, e);
    }
  }

  static Condition condition(KubernetesClient client, String name, String type) {
    return Condition.find(etcd(client, name).getStatus().getConditions(), type).orElseThrow();
  }

  static List<Pod> pods(KubernetesClient client, String name) {
    return client.pods().withLabel(Labels.PART_OF, name).list().getItems();
  }

  static List<PersistentVolumeClaim> pvcs(KubernetesClient client, String name) {
    return client.persistentVolumeClaims().withLabel(Labels.PART_OF, name).list().getItems();
  }

  /**
   * The events about one object, in the order they were recorded: by their microsecond
   * {@code eventTime} (the operator's events carry it; {@code lastTimestamp} has whole seconds,
   * and on a fast machine a whole capacity recovery fits in one).
   */
  static List<Event> events(KubernetesClient client, String kind, String name) {
    return client.v1().events().list().getItems().stream()
        .filter(e -> kind.equals(e.getInvolvedObject().getKind())
            && name.equals(e.getInvolvedObject().getName()))
        .sorted(java.util.Comparator.comparing((Event e) -> e.getEventTime() == null ? ""
            : e.getEventTime().getTime()).thenComparing(e -> e.getLastTimestamp() == null ? ""
            : e.getLastTimestamp()))
        .toList();
  }

  static void createTask(KubernetesClient client, String name, String etcd,
      Consumer<EtcdOpsTaskConfig> config, Integer ttl) {
    EtcdOpsTask task = new EtcdOpsTask();
    task.setMetadata(new ObjectMetaBuilder().withName(name).build());
    EtcdOpsTaskSpec spec = new EtcdOpsTaskSpec();
    spec.setEtcdName(etcd);
    spec.setTtlSecondsAfterFinished(ttl);
    EtcdOpsTaskConfig c = new EtcdOpsTaskConfig();
    config.accept(c);
    spec.setConfig(c);
    task.setSpec(spec);
    client.resource(task).create();
  }

  /** Waits until the task's state is {@code state}, at most {@link #TASK}; the task then. */
  static EtcdOpsTask awaitTaskState(KubernetesClient client, String name, String state) {
    try {
      await().atMost(TASK).pollInterval(Duration.ofMillis(300)).ignoreExceptions().until(() ->
          state.equals(client.resources(EtcdOpsTask.class).withName(name).get().getStatus()
              .getState()));
    } catch (ConditionTimeoutException e) {
      EtcdOpsTask task = client.resources(EtcdOpsTask.class).withName(name).get();
      throw new AssertionError("task " + name + " did not reach " + state + ":\n"
          + (task == null ? "(gone)" : Serialization.asYaml(task)), e);
    }
    return client.resources(EtcdOpsTask.class).withName(name).get();
  }
}
