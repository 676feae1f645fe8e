package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.agent.Downgraded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.agent.BackgroundCalls;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.status.VolumeRecorder;
import cloud.gardener.druid.operator.action.RestartReason;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the executor does for each action type: the API requests it sends (to a small fake API
 * server on loopback), the agent calls it makes (a fake agent client), the events it records
 * and the volume operation it hands back for the status.
 */
class RolloutExecutorTest {

  HttpServer api;
  KubernetesClient client;
  final List<String> requests = new ArrayList<>();
  final List<Event> events = new ArrayList<>();
  final List<String> agentCalls = new ArrayList<>();
  RolloutExecutor executor;
  VolumeRecorder volumes;
  ClusterSnapshot s;

  /** Member pods the fake API server holds, by name: their uid. */
  final Map<String, String> pods = new HashMap<>();
  /** The deleted pods the fake keeps, terminating, until a test removes them. */
  final Set<String> terminating = new HashSet<>();
  /** Pods a DELETE only marks terminating instead of removing. */
  boolean podsLinger;
  final List<String> deleteBodies = new ArrayList<>();
  /** Whether the fake agents' full snapshots fail. */
  volatile boolean snapshotFails;

  @BeforeEach
  void start() throws IOException {
    api = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    api.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      int code;
      String answer;
      synchronized (this) {
        if (path.endsWith("/events")) {
          events.add(Serialization.unmarshal(body, Event.class));
        } else {
          requests.add(method + " " + path);
        }
        String pod = path.startsWith(PODS) ? path.substring(PODS.length()) : null;
        if ("DELETE".equals(method)) {
          deleteBodies.add(body);
          code = 200;
          answer = STATUS_SUCCESS;
          if (pod != null && pods.containsKey(pod)) {
            if (body.contains("\"uid\"") && !body.contains(pods.get(pod))) {
              code = 409;
              answer = "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\","
                  + "\"reason\":\"Conflict\",\"code\":409}";
            } else if (podsLinger) {
              terminating.add(pod);
            } else {
              pods.remove(pod);
            }
          }
        } else if ("GET".equals(method) && pod != null) {
          code = pods.containsKey(pod) ? 200 : 404;
          answer = pods.containsKey(pod) ? podJson(pod) : "{\"apiVersion\":\"v1\","
              + "\"kind\":\"Status\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}";
        } else if ("PUT".equals(method)) {
          code = 200;
          answer = written(body);
        } else {
          code = "POST".equals(method) ? 201 : 200;
          answer = body;
        }
      }
      byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(code, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    api.start();
    client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
        .withMasterUrl("http://127.0.0.1:" + api.getAddress().getPort())
        .withRequestRetryBackoffLimit(0).build()).build();
    volumes = new VolumeRecorder(client);
    executor = new RolloutExecutor(client, new FakeAgents(),
        new OperatorSettings("etcd-druid:test", null),
        new EventRecorder(client, EventRecorder.COMPONENT), volumes,
        new RolloutSnapshots(new BackgroundCalls(Runnable::run, Clock.systemUTC())),
        Duration.ZERO);
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", 3));
    c.etcd.getMetadata().setResourceVersion("1");
    for (int i = 0; i < 4; i++) {
      c.add(i, "new").role = i == 1 ? "Leader" : "Member";
    }
    s = c.snapshot();
    restarting = c;
  }

  static final String PODS = "/api/v1/namespaces/ns/pods/";
  static final String STATUS_SUCCESS =
      "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Success\"}";
  FakeCluster restarting;

  private String podJson(String name) {
    Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
        .withUid(pods.get(name))
        .withDeletionTimestamp(terminating.contains(name) ? "2026-01-01T00:00:00Z" : null)
        .endMetadata().build();
    return Serialization.asJson(pod);
  }

  /** What the API server answers to a write: the object at the next resourceVersion. */
  private static String written(String body) {
    GenericKubernetesResource object = Serialization.unmarshal(body,
        GenericKubernetesResource.class);
    String version = object.getMetadata().getResourceVersion();
    object.getMetadata().setResourceVersion(String.valueOf(
        version == null ? 1 : Long.parseLong(version) + 1));
    return Serialization.asJson(object);
  }

  @AfterEach
  void stop() {
    client.close();
    api.stop(0);
    executor.close();
  }

  @Test
  void doneAndWaitTouchNothing() {
    assertThat(executor.execute(s, new RolloutAction.Done()))
        .isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(executor.execute(s, new RolloutAction.Wait("etcd-1 to become ready")))
        .isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(requests).isEmpty();
    assertThat(agentCalls).isEmpty();
    assertThat(events).isEmpty();
  }

  @Test
  void createVolumesAndExpandVolumesApplyTheDesiredClaims() {
    executor.execute(s, new RolloutAction.CreateVolumes(List.of(1)));
    executor.execute(s, new RolloutAction.ExpandVolumes(List.of(2)));
    assertThat(requests).containsExactly(
        "PATCH /api/v1/namespaces/ns/persistentvolumeclaims/etcd-etcd-1",
        "PATCH /api/v1/namespaces/ns/persistentvolumeclaims/etcd-etcd-2");
    assertThat(reasons()).containsExactly("VolumesExpanding");
  }

  @Test
  void createPodsCreatesEachPod() {
    executor.execute(s, new RolloutAction.CreatePods(List.of(0, 2), "bootstrapping the cluster"));
    assertThat(requests).containsExactly("POST /api/v1/namespaces/ns/pods",
        "POST /api/v1/namespaces/ns/pods");
    assertThat(reasons()).containsExactly("MembersCreated");
  }

  @Test
  void aRestartDeletesTheObservedPodAndCreatesItAgainSayingWhy() {
    pods.put("etcd-2", "uid-etcd-2");
    RolloutExecutor.Outcome outcome = executor.execute(s, new RolloutAction.RestartMember(2,
        "etcd-2", RestartReason.PEER_URL_CHANGED));
    assertThat(outcome).isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(requests).containsExactly("DELETE " + PODS + "etcd-2", "GET " + PODS + "etcd-2",
        "POST /api/v1/namespaces/ns/pods");
    assertThat(deleteBodies).singleElement().asString()
        .as("deletes only the pod it observed").contains("\"uid\":\"uid-etcd-2\"");
    assertThat(reasons()).containsExactly("MemberUpdating", "MemberRestarted");
    assertThat(events).allSatisfy(e -> assertThat(e.getMessage())
        .contains("etcd-2", RestartReason.PEER_URL_CHANGED.text()));
  }

  /**
   * The fault {@code agent-kill} during a rollout ({@code druid bench chaos --seed 2}, round 3):
   * another member died after the observation the restart was planned from; restarting this
   * one as well would take two of three members down.
   */
  @Test
  void agentKillDuringARolloutKeepsTheRestartWaitingUntilTheOtherMemberVotesAgain() {
    pods.put("etcd-2", "uid-etcd-2");
    silentAgents.add("etcd-0");
    RolloutAction.RestartMember restart = new RolloutAction.RestartMember(2, "etcd-2",
        RestartReason.SPEC_CHANGED);

    assertThat(executor.execute(s, restart)).isEqualTo(new RolloutExecutor.Outcome.Waiting(
        "the agent of etcd-0 does not answer (asked just before restarting etcd-2)"));
    assertThat(requests).as("nothing deleted").isEmpty();
    assertThat(events).isEmpty();

    silentAgents.clear();
    assertThat(executor.execute(s, restart)).isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(requests).startsWith("DELETE " + PODS + "etcd-2");
  }

  @Test
  void aRestartWhosePodStillTerminatesWaitsAndTheNextOnlyCreatesIt() {
    pods.put("etcd-2", "uid-etcd-2");
    podsLinger = true;
    RolloutAction.RestartMember restart = new RolloutAction.RestartMember(2, "etcd-2",
        RestartReason.SPEC_CHANGED);
    assertThat(executor.execute(s, restart))
        .isEqualTo(new RolloutExecutor.Outcome.Waiting("etcd-2's pod to terminate", true));
    assertThat(requests).containsExactly("DELETE " + PODS + "etcd-2", "GET " + PODS + "etcd-2");

    requests.clear();
    restarting.members.get(2).terminating = true;
    ClusterSnapshot terminatingPod = restarting.snapshot();
    assertThat(executor.execute(terminatingPod, restart))
        .as("still there: no second delete").isInstanceOf(RolloutExecutor.Outcome.Waiting.class);
    pods.remove("etcd-2");
    assertThat(executor.execute(terminatingPod, restart))
        .isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(requests).containsExactly("GET " + PODS + "etcd-2", "GET " + PODS + "etcd-2",
        "POST /api/v1/namespaces/ns/pods");
    assertThat(reasons()).containsExactly("MemberUpdating", "MemberRestarted");
  }

  @Test
  void aRestartOfAPodAlreadyGoneOnlyCreatesIt() {
    restarting.members.get(2).podExists = false;
    assertThat(executor.execute(restarting.snapshot(), new RolloutAction.RestartMember(2,
        "etcd-2", RestartReason.POD_DELETED)))
        .isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(requests).containsExactly("POST /api/v1/namespaces/ns/pods");
    assertThat(reasons()).containsExactly("MemberRestarted");
  }

  @Test
  void aRestartLeavesAPodThatReplacedTheObservedOneAlone() {
    pods.put("etcd-2", "uid-of-a-newer-pod");
    assertThat(executor.execute(s, new RolloutAction.RestartMember(2, "etcd-2",
        RestartReason.SPEC_CHANGED)))
        .isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(requests).containsExactly("DELETE " + PODS + "etcd-2");
    assertThat(pods).containsEntry("etcd-2", "uid-of-a-newer-pod");
  }

  @Test
  void leadershipPromotionAndRemovalGoThroughTheNamedMembersAgent() {
    executor.execute(s, new RolloutAction.MoveLeader(1, "etcd-1", "m0", "etcd-0"));
    executor.execute(s, new RolloutAction.PromoteLearner(2, "etcd-2", "m2", 1));
    executor.execute(s, new RolloutAction.RemoveMember(3, "etcd-3", "m3", 1));
    assertThat(agentCalls).containsExactly("moveLeader etcd-1 127.0.0.2 -> m0",
        "promote m2 via etcd-1", "remove m3 via etcd-1");
    assertThat(requests).isEmpty();
    assertThat(reasons()).containsExactly("LeadershipMoved", "MemberPromoted", "MemberRemoved");
  }

  @Test
  void aSurplusMemberLosesPodVolumeAndLease() {
    executor.execute(s, new RolloutAction.DeleteSurplusMember(3, "etcd-3"));
    assertThat(requests).containsExactly("DELETE /api/v1/namespaces/ns/pods/etcd-3",
        "DELETE /api/v1/namespaces/ns/persistentvolumeclaims/etcd-etcd-3",
        "DELETE /apis/coordination.k8s.io/v1/namespaces/ns/leases/etcd-3");
    assertThat(reasons()).containsExactly("MemberDeleted");
  }

  @Test
  void aRecordIsWrittenToTheStatusAndReadByTheNextObservation() {
    VolumeOperation op = operation(VolumeOperation.Kind.REPLACE, VolumeOperation.PHASE_REPLACING);
    assertThat(executor.execute(s, new RolloutAction.RecordVolumeOperation(op, "replacing")))
        .isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(requests).containsExactly("PUT /apis/druid.gardener.cloud/v1alpha1/namespaces/ns/etcds/etcd/status");
    assertThat(volumes.current(s.etcd())).hasValueSatisfying(recorded -> {
      assertThat(recorded.getType()).isEqualTo(VolumeOperation.TYPE_REPLACE);
      assertThat(recorded.getPhase()).isEqualTo(VolumeOperation.PHASE_REPLACING);
    });
    assertThat(reasons()).containsExactly("VolumeOperation");
  }

  @Test
  void aFullSnapshotRunsInTheBackgroundThenRecordsItsRevision() {
    VolumeOperation then = operation(VolumeOperation.Kind.REPLACE,
        VolumeOperation.PHASE_SNAPSHOTTED);
    RolloutAction.TakeFullSnapshot step = new RolloutAction.TakeFullSnapshot(1, then);
    assertThat(executor.execute(s, step)).isInstanceOf(RolloutExecutor.Outcome.Waiting.class);
    RolloutExecutor.Outcome done = executor.execute(s, step);
    assertThat(done).isInstanceOf(RolloutExecutor.Outcome.Done.class);
    assertThat(volumes.current(s.etcd())).hasValueSatisfying(
        op -> assertThat(op.getSnapshotRevision()).isEqualTo(42L));
    assertThat(agentCalls).containsExactly("full snapshot via etcd-1 final=false");
    assertThat(reasons()).containsExactly("FullSnapshotTaken");
  }

  @Test
  void aFailedFullSnapshotIsThrownOnceAndTheNextStepTakesItAgain() {
    RolloutAction.TakeFullSnapshot step = new RolloutAction.TakeFullSnapshot(1,
        operation(VolumeOperation.Kind.REPLACE, VolumeOperation.PHASE_SNAPSHOTTED));
    snapshotFails = true;
    assertThat(executor.execute(s, step)).isInstanceOf(RolloutExecutor.Outcome.Waiting.class);
    assertThatThrownBy(() -> executor.execute(s, step))
        .isInstanceOf(AgentClient.AgentException.class).hasMessage("no leader");
    snapshotFails = false;
    assertThat(executor.execute(s, step)).as("asks anew")
        .isInstanceOf(RolloutExecutor.Outcome.Waiting.class);
    assertThat(executor.execute(s, step)).isInstanceOf(RolloutExecutor.Outcome.Done.class);
    assertThat(agentCalls).hasSize(2);
  }

  @Test
  void aDefragmentationStepForATaskGoesThroughTheMembersAgentAndNamesTheTask() {
    executor.forTask("defrag-1", Duration.ofSeconds(30))
        .execute(s, new RolloutAction.Defragment(2, "etcd-2"));
    assertThat(agentCalls).containsExactly("defragment etcd-2");
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.getReason()).isEqualTo("MemberDefragmented");
      assertThat(e.getMessage()).startsWith("EtcdOpsTask defrag-1: ").contains("etcd-2");
    });
  }

  @Test
  void hibernationTakesTheFinalSnapshotThenDeletesEveryPod() {
    VolumeOperation record = operation(VolumeOperation.Kind.HIBERNATE_DELETE_VOLUMES,
        VolumeOperation.PHASE_SNAPSHOTTED);
    RolloutAction.Hibernate step = new RolloutAction.Hibernate(List.of(0, 1, 2),
        OptionalInt.of(1), Optional.of(record));
    assertThat(executor.execute(s, step)).isInstanceOf(RolloutExecutor.Outcome.Waiting.class);
    assertThat(requests).as("no pod goes before the final snapshot").isEmpty();
    assertThat(executor.execute(s, step)).isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(volumes.current(s.etcd())).hasValueSatisfying(
        op -> assertThat(op.getSnapshotRevision()).isEqualTo(42L));
    assertThat(agentCalls).containsExactly("full snapshot via etcd-1 final=true");
    assertThat(requests).containsExactly("DELETE /api/v1/namespaces/ns/pods/etcd-0",
        "DELETE /api/v1/namespaces/ns/pods/etcd-1", "DELETE /api/v1/namespaces/ns/pods/etcd-2",
        "PUT /apis/druid.gardener.cloud/v1alpha1/namespaces/ns/etcds/etcd/status");
    assertThat(reasons()).containsExactly("FinalSnapshotTaken", "Hibernating");
  }

  @Test
  void aVolumeReplacementDeletesPodAndClaimAndSaysWhy() {
    executor.execute(s, new RolloutAction.DeleteMemberAndVolume(2, "etcd-2", "etcd-etcd-2",
        RestartReason.VOLUME_REPLACED));
    assertThat(requests).containsExactly("DELETE /api/v1/namespaces/ns/pods/etcd-2",
        "DELETE /api/v1/namespaces/ns/persistentvolumeclaims/etcd-etcd-2");
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.getReason()).isEqualTo("VolumeReplacing");
      assertThat(e.getMessage()).contains(RestartReason.VOLUME_REPLACED.text());
    });
  }

  @Test
  void deleteMembersKeepsVolumesAndDeleteVolumesRecordsWhatFollows() {
    executor.execute(s, new RolloutAction.DeleteMembers(List.of(0, 2), "recovering"));
    VolumeOperation then = operation(VolumeOperation.Kind.RECOVER_FROM_QUORUM_LOSS,
        VolumeOperation.PHASE_VOLUMES_DELETED);
    assertThat(executor.execute(s, new RolloutAction.DeleteVolumes(
        List.of("etcd-etcd-0", "etcd-etcd-2"), then)))
        .isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(requests).containsExactly("DELETE /api/v1/namespaces/ns/pods/etcd-0",
        "DELETE /api/v1/namespaces/ns/pods/etcd-2",
        "DELETE /api/v1/namespaces/ns/persistentvolumeclaims/etcd-etcd-0",
        "DELETE /api/v1/namespaces/ns/persistentvolumeclaims/etcd-etcd-2",
        "PUT /apis/druid.gardener.cloud/v1alpha1/namespaces/ns/etcds/etcd/status");
    assertThat(volumes.current(s.etcd())).hasValueSatisfying(op ->
        assertThat(op.getPhase()).isEqualTo(VolumeOperation.PHASE_VOLUMES_DELETED));
    assertThat(reasons()).containsExactly("MembersDeleted", "VolumesDeleted");
  }

  private List<String> reasons() {
    return events.stream().map(Event::getReason).toList();
  }

  private static VolumeOperation operation(VolumeOperation.Kind kind, String phase) {
    VolumeOperation op = new VolumeOperation();
    op.setType(kind.type());
    op.setPhase(phase);
    op.setGeneration(1L);
    return op;
  }

  /** Records each call; snapshots answer revision 42. */
  /** Members whose agents do not answer a status call (by default each answers as observed). */
  final Set<String> silentAgents = new HashSet<>();

  final class FakeAgents implements AgentClient {
    @Override
    public Optional<AgentView> status(AgentEndpoint endpoint) {
      return silentAgents.contains(endpoint.member()) ? Optional.empty()
          : s.members().stream().filter(m -> m.name().equals(endpoint.member())).findFirst()
              .flatMap(m -> m.agent());
    }

    @Override
    public void moveLeader(AgentEndpoint leader, String toMemberId) {
      agentCalls.add("moveLeader " + leader.member() + " " + leader.host() + " -> " + toMemberId);
    }

    @Override
    public void promote(AgentEndpoint via, String memberId) {
      agentCalls.add("promote " + memberId + " via " + via.member());
    }

    @Override
    public void removeMember(AgentEndpoint via, String memberId) {
      agentCalls.add("remove " + memberId + " via " + via.member());
    }

    @Override
    public long fullSnapshot(AgentEndpoint leader, boolean isFinal) {
      agentCalls.add("full snapshot via " + leader.member() + " final=" + isFinal);
      if (snapshotFails) {
        throw new AgentClient.AgentException("no leader");
      }
      return 42;
    }

    @Override
    public OptionalLong deltaSnapshot(AgentEndpoint leader) {
      return OptionalLong.empty();
    }

    @Override
    public void defragment(AgentEndpoint member) {
      agentCalls.add("defragment " + member.member());
    }

    @Override
    public long compact(AgentEndpoint via) {
      agentCalls.add("compact " + via.member());
      return 42;
    }

    @Override
    public java.util.List<String> disarmNoSpace(AgentEndpoint via) {
      agentCalls.add("disarm " + via.member());
      return java.util.List.of();
    }

    @Override
    public String downgrade(AgentEndpoint via, Downgraded.Action action, String minor) {
      agentCalls.add("downgrade " + action + " " + minor + " via " + via.member());
      if (refuseDowngrade) {
        throw new AgentException("etcd refused: invalid downgrade target version");
      }
      return minor + ".0";
    }
  }

  boolean refuseDowngrade;

  @Test
  void aDowngradeTakesTheSnapshotThenValidatesAndEnablesThroughTheLeader() {
    RolloutAction.Downgrade step = new RolloutAction.Downgrade(1, Downgraded.Action.ENABLE,
        "3.5", java.util.OptionalInt.of(1));
    assertThat(executor.execute(s, step)).isInstanceOf(RolloutExecutor.Outcome.Waiting.class);
    assertThat(executor.execute(s, step)).isEqualTo(new RolloutExecutor.Outcome.Done());
    assertThat(agentCalls).containsExactly("full snapshot via etcd-1 final=false",
        "downgrade VALIDATE 3.5 via etcd-1", "downgrade ENABLE 3.5 via etcd-1");
    assertThat(reasons()).containsExactly("FullSnapshotTaken", "EtcdDowngrade");
  }

  @Test
  void aDowngradeEtcdRefusesRestartsNothingAndSaysWhy() {
    refuseDowngrade = true;
    RolloutExecutor.Outcome outcome = executor.execute(s, new RolloutAction.Downgrade(1,
        Downgraded.Action.ENABLE, "3.5", java.util.OptionalInt.empty()));
    assertThat(outcome).isInstanceOf(RolloutExecutor.Outcome.Waiting.class);
    assertThat(((RolloutExecutor.Outcome.Waiting) outcome).what())
        .contains("invalid downgrade target version");
    assertThat(agentCalls).containsExactly("downgrade VALIDATE 3.5 via etcd-1");
    assertThat(requests).as("no pod touched").isEmpty();
    assertThat(reasons()).containsExactly("EtcdDowngradeRefused");
  }
}
