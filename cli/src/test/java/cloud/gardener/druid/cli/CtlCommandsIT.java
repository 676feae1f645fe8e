package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.LastError;
import cloud.gardener.druid.api.v1alpha1.LastOperation;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig.SnapshotType;
import cloud.gardener.druid.api.v1alpha1.OpsTaskLastOperation;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig.Source;
import cloud.gardener.druid.cli.ctl.EtcdPlans;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each {@code kubectl druid} command against the local control plane, without the operator:
 * the test checks what each command writes, and plays the operator's part (statuses) itself.
 */
@LocalKubernetes
class CtlCommandsIT {

  static final Duration WAIT = Kubectl.WAIT;

  static Kubectl kubectl;

  @BeforeAll
  static void installCrds(LocalCluster cluster, TestNamespace ns) {
    try (KubernetesClient admin = cluster.newClient(null)) {
      CrdInstaller.install(admin, "druid-cli-tests");
    }
    kubectl = new Kubectl(cluster.kubeconfig(), ns.name());
  }

  static Kubectl.Run run(String... args) {
    return kubectl.run(args);
  }

  static Kubectl.Running start(String... args) {
    return kubectl.start(args);
  }

  static Etcd create(KubernetesClient client, String name, Map<String, String> labels) {
    Etcd etcd = client.resources(Etcd.class)
        .load(DocsCommandsTest.repoRoot().resolve("examples/etcd-3-local.yaml").toFile()).item();
    etcd.getMetadata().setName(name);
    etcd.getMetadata().setNamespace(null);
    etcd.getMetadata().setAnnotations(null);
    etcd.getMetadata().setLabels(labels);
    etcd.getSpec().getBackup().getStore().setPrefix(client.getNamespace() + "/" + name);
    return client.resource(etcd).create();
  }

  static Etcd etcd(KubernetesClient client, String name) {
    return client.resources(Etcd.class).withName(name).get();
  }

  static void writeStatus(KubernetesClient client, String name, EtcdStatus status) {
    Etcd etcd = etcd(client, name);
    etcd.setStatus(status);
    client.resource(etcd).updateStatus();
  }

  static Condition condition(String type, String status, String reason, String message) {
    Condition c = new Condition();
    c.setType(type);
    c.setStatus(status);
    c.setReason(reason);
    c.setMessage(message);
    c.setLastTransitionTime("2026-12-01T00:00:00Z");
    c.setLastUpdateTime("2026-12-01T00:00:00Z");
    return c;
  }

  static EtcdStatus status(long observed, String readyStatus, String operationState) {
    EtcdStatus s = new EtcdStatus();
    s.setObservedGeneration(observed);
    s.setConditions(List.of(
        condition(ConditionTypes.ALL_MEMBERS_UPDATED, "True", "AllMembersUpdated", "3/3"),
        condition(ConditionTypes.ALL_MEMBERS_READY, readyStatus, "Members", "members ready"),
        condition(ConditionTypes.READY, readyStatus, "Quorum", "quorum")));
    LastOperation op = new LastOperation();
    op.setType("Reconcile");
    op.setState(operationState);
    op.setDescription("test");
    op.setRunID("run-1");
    op.setLastUpdateTime("2026-12-01T00:00:00Z");
    s.setLastOperation(op);
    return s;
  }

  @Test
  void statusShowsOneOrListsThemInTheContextsNamespace(KubernetesClient client,
      @TempDir Path dir) throws Exception {
    create(client, "list-a", Map.of("app", "a"));
    create(client, "list-b", Map.of("app", "b"));

    Kubectl.Run one = run("status", "list-a");
    assertThat(one.code()).isZero();
    assertThat(one.out()).startsWith("Etcd " + kubectl.namespace() + "/list-a  generation 1")
        .contains("Rollout: in progress - no status yet");

    Kubectl.Run list = run("status", "-l", "app=a");
    assertThat(list.out()).contains("NAME", "list-a", "0/3", "InProgress").doesNotContain("list-b");
    assertThat(run("status", "-o", "wide").out()).contains("list-a", "list-b", "GENERATION");
    assertThat(run("status", "-A", "-l", "app in (a,b)").out())
        .contains("NAMESPACE", kubectl.namespace(), "list-a", "list-b");
    JsonNode json = new ObjectMapper().readTree(run("status", "list-b", "-o", "json").out());
    assertThat(json.at("/metadata/name").asText()).isEqualTo("list-b");
    JsonNode items = new ObjectMapper().readTree(run("status", "-o", "json").out());
    assertThat(items.at("/kind").asText()).isEqualTo("List");

    // no -n: the namespace of the kubeconfig's current context
    Path withNamespace = dir.resolve("kubeconfig");
    Files.writeString(withNamespace, Files.readString(kubectl.kubeconfig())
        .replace("namespace: default", "namespace: " + kubectl.namespace()));
    StringWriter out = new StringWriter();
    var cli = KubectlDruid.commandLine();
    cli.setOut(new PrintWriter(out, true));
    assertThat(cli.execute("status", "list-a", "--kubeconfig", withNamespace.toString()))
        .isZero();
    assertThat(out.toString()).startsWith("Etcd " + kubectl.namespace() + "/list-a");

    assertThat(run("status", "nope").code()).isEqualTo(ExitCodes.NOT_FOUND);
  }

  @Test
  void waitRolloutPrintsEachChangeAndEndsWithTheRollout(KubernetesClient client) {
    create(client, "wait-a", null);
    Kubectl.Running waiting = start("wait", "rollout", "wait-a", "--timeout", "2m");
    await().atMost(WAIT).until(() -> waiting.out().toString().contains("no status yet"));
    writeStatus(client, "wait-a", status(1, "False", "Processing"));
    await().atMost(WAIT).until(() -> waiting.out().toString().contains("AllMembersReady is"
        + " False"));
    writeStatus(client, "wait-a", status(1, "True", "Succeeded"));
    Kubectl.Run done = waiting.join();
    assertThat(done.code()).isZero();
    assertThat(done.out()).contains("etcd " + kubectl.namespace() + "/wait-a: rollout of"
        + " generation 1 is complete");
    assertThat(done.out().lines().filter(l -> l.startsWith("generation 1: waiting for")))
        .isNotEmpty().doesNotHaveDuplicates();

    create(client, "wait-b", null);
    Kubectl.Run timedOut = run("wait", "rollout", "wait-b", "--timeout", "1s");
    assertThat(timedOut.code()).isEqualTo(ExitCodes.TIMEOUT);
    assertThat(timedOut.err()).contains("timed out after 1s", "no status yet");
  }

  @Test
  void confirmVolumesWritesTheGenerationAfterShowingTheChange(KubernetesClient client) {
    create(client, "vol-a", null);
    EtcdStatus s = status(1, "True", "Succeeded");
    List<Condition> conditions = new ArrayList<>(s.getConditions());
    conditions.add(condition(ConditionTypes.VOLUMES_UP_TO_DATE, "False", "AwaitingConfirmation",
        "storageClass standard -> encrypted: every member's volume is replaced. Confirm with:"
            + " kubectl annotate ..."));
    s.setConditions(conditions);
    writeStatus(client, "vol-a", s);

    Kubectl.Run dry = run("confirm-volumes", "vol-a", "--dry-run");
    assertThat(dry.code()).isZero();
    assertThat(dry.out()).contains("pending volume change: storageClass standard -> encrypted",
        Annotations.CONFIRM_VOLUME_REPLACEMENT + "=1", "(dry run: nothing changed)");
    assertThat(etcd(client, "vol-a").getMetadata().getAnnotations()).isNullOrEmpty();

    assertThat(run("confirm-volumes", "vol-a").code()).isZero();
    assertThat(etcd(client, "vol-a").getMetadata().getAnnotations())
        .containsEntry(Annotations.CONFIRM_VOLUME_REPLACEMENT, "1");

    create(client, "vol-b", null);
    assertThat(run("confirm-volumes", "vol-b").code()).isEqualTo(ExitCodes.REFUSED);
  }

  @Test
  void snapshotCreatesTheTaskAndFollowsItToItsEnd(KubernetesClient client) {
    create(client, "snap-a", null);
    Kubectl.Running following = start("snapshot", "snap-a", "--timeout", "2m");
    EtcdOpsTask task = await().atMost(WAIT).until(() -> tasks(client, "snap-a"),
        l -> l.size() == 1).get(0);
    assertThat(task.getMetadata().getName()).startsWith("snap-a-snapshot-");
    assertThat(task.getSpec().getConfig().getOnDemandSnapshot().getType())
        .isEqualTo(SnapshotType.FULL);

    writeTaskStatus(client, task, EtcdOpsTaskStatus.STATE_IN_PROGRESS, "admitted; running", null);
    await().atMost(WAIT).until(() -> following.out().toString().contains("InProgress"));
    writeTaskStatus(client, task, EtcdOpsTaskStatus.STATE_SUCCEEDED,
        "full snapshot up to revision 42 taken by the agent of snap-a-0", null);
    Kubectl.Run done = following.join();
    assertThat(done.code()).isZero();
    assertThat(done.out()).contains(
        "created etcdopstask " + kubectl.namespace() + "/snap-a-snapshot-",
        "Succeeded: full snapshot up to revision 42 taken by the agent of snap-a-0");

    Kubectl.Running failing = start("snapshot", "snap-a", "--type", "delta");
    EtcdOpsTask delta = await().atMost(WAIT).until(() -> tasks(client, "snap-a"),
        l -> l.size() == 2).stream().filter(t -> !t.getMetadata().getName()
            .equals(task.getMetadata().getName())).findFirst().orElseThrow();
    writeTaskStatus(client, delta, EtcdOpsTaskStatus.STATE_FAILED, "failed",
        "no leader within the timeout");
    Kubectl.Run failed = failing.join();
    assertThat(failed.code()).isEqualTo(ExitCodes.TASK_FAILED);
    assertThat(failed.out()).contains("Failed: failed (error", "no leader within the timeout");
  }

  @Test
  void taskCommandsWriteTheirOperation(KubernetesClient client) {
    create(client, "ops-a", null);
    assertThat(run("defragment", "ops-a", "--dry-run=server").code()).isZero();
    assertThat(tasks(client, "ops-a")).isEmpty();

    assertThat(run("defragment", "ops-a", "--no-wait", "--timeout-per-member", "2m").code())
        .isZero();
    assertThat(run("replace-member-volume", "ops-a", "ops-a-1", "--no-wait").code()).isZero();
    assertThat(run("recover-quorum", "ops-a", "--source", "Store", "--no-wait").code()).isZero();
    List<EtcdOpsTask> tasks = tasks(client, "ops-a");
    assertThat(tasks).hasSize(3).allSatisfy(t ->
        assertThat(t.getSpec().getEtcdName()).isEqualTo("ops-a"));
    assertThat(tasks.stream().map(t -> t.getSpec().getConfig()))
        .anyMatch(c -> c.getDefragment() != null
            && c.getDefragment().getTimeoutSecondsPerMember() == 120)
        .anyMatch(c -> c.getReplaceMemberVolume() != null
            && "ops-a-1".equals(c.getReplaceMemberVolume().getMemberName()))
        .anyMatch(c -> c.getRecoverFromQuorumLoss() != null
            && c.getRecoverFromQuorumLoss().getSource() == Source.STORE);
  }

  @Test
  void hibernateAndWakeChangeTheReplicasAndRememberThem(KubernetesClient client) {
    create(client, "hib-a", null);
    assertThat(run("hibernate", "hib-a", "--dry-run").code()).isZero();
    assertThat(etcd(client, "hib-a").getSpec().getReplicas()).isEqualTo(3);

    Kubectl.Run hibernate = run("hibernate", "hib-a");
    assertThat(hibernate.code()).isZero();
    Etcd hibernated = etcd(client, "hib-a");
    assertThat(hibernated.getSpec().getReplicas()).isZero();
    assertThat(hibernated.getMetadata().getAnnotations())
        .containsEntry(EtcdPlans.REPLICAS_BEFORE_HIBERNATION, "3");
    assertThat(run("hibernate", "hib-a").code()).isEqualTo(ExitCodes.REFUSED);

    assertThat(run("wake", "hib-a").code()).isZero();
    Etcd awake = etcd(client, "hib-a");
    assertThat(awake.getSpec().getReplicas()).isEqualTo(3);
    assertThat(awake.getMetadata().getAnnotations())
        .doesNotContainKey(EtcdPlans.REPLICAS_BEFORE_HIBERNATION);
  }

  @Test
  void reconcileSuspendAndResumeWriteTheUpstreamAnnotations(KubernetesClient client) {
    create(client, "ann-a", null);
    assertThat(run("suspend", "ann-a").code()).isZero();
    assertThat(etcd(client, "ann-a").getMetadata().getAnnotations())
        .containsEntry(Annotations.SUSPEND_SPEC_RECONCILE, "true");
    assertThat(run("reconcile", "ann-a").out()).contains("nothing happens until 'resume'");
    assertThat(run("resume", "ann-a").code()).isZero();
    assertThat(etcd(client, "ann-a").getMetadata().getAnnotations())
        .doesNotContainKey(Annotations.SUSPEND_SPEC_RECONCILE)
        .containsEntry(Annotations.OPERATION, Annotations.OPERATION_RECONCILE);
    assertThat(run("resume", "ann-a").code()).isEqualTo(ExitCodes.REFUSED);
  }

  static List<EtcdOpsTask> tasks(KubernetesClient client, String etcd) {
    return client.resources(EtcdOpsTask.class).list().getItems().stream()
        .filter(t -> etcd.equals(t.getSpec().getEtcdName())).toList();
  }

  static void writeTaskStatus(KubernetesClient client, EtcdOpsTask task, String state,
      String description, String error) {
    EtcdOpsTask fresh = client.resource(task).get();
    EtcdOpsTaskStatus s = new EtcdOpsTaskStatus();
    s.setState(state);
    s.setStartedAt("2026-12-01T00:00:00Z");
    s.setLastTransitionTime("2026-12-01T00:00:00Z");
    OpsTaskLastOperation op = new OpsTaskLastOperation();
    op.setType(OpsTaskLastOperation.TYPE_EXECUTION);
    op.setState(OpsTaskLastOperation.STATE_IN_PROGRESS);
    op.setDescription(description);
    op.setRunID("run-1");
    op.setLastTransitionTime("2026-12-01T00:00:00Z");
    s.setLastOperation(op);
    if (error != null) {
      LastError e = new LastError();
      e.setCode("ERR_EXECUTION");
      e.setDescription(error);
      e.setObservedAt("2026-12-01T00:00:00Z");
      s.setLastErrors(List.of(e));
    }
    fresh.setStatus(s);
    client.resource(fresh).updateStatus();
  }
}
