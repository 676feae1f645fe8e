package cloud.gardener.druid.operator.testing;

import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.operator.model.AgentArgs;
import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.model.EtcdConfigMapBuilder;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.MemberPodBuilder;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.model.MemberVolumeBuilder;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An in-memory cluster of members for deciding rollout steps in unit tests: each member has a
 * pod revision, readiness, an etcd role and raft index. Builds {@link ClusterSnapshot}s.
 */
public final class FakeCluster {

  /** One simulated member. */
  public static final class Member {
    public String podRevision;
    public boolean podExists = true;
    public boolean ready = true;
    public boolean terminating;
    public boolean hasVolume = true;
    public String role = "Member";
    public long raftIndex = 100;
    public boolean inMembership = true;
    public String clusterId = "c1";
    /** What the agent says while the member restores; null when it does not. */
    public String restoring;
    /** False: the pod runs (and may be ready) but its agent gives no answer. */
    public boolean agentAnswers = true;
    /** The etcd configuration's checksum on the pod; null: the desired one. */
    public String configChecksum;
    /** The CA bundles' checksum on the pod; null: the desired one. */
    public String trustedCaChecksum;
    /** The member's space as its agent reports it; null: not reported. */
    public MemberSpace space;
    /** The etcd the pod runs (its agent's --etcd-version); null: the image's default. */
    public EtcdRelease etcd;
    /** The quota the pod gives etcd (its agent's --quota-backend-bytes); null: the desired. */
    public Long quotaBytes;
    /** What etcd's initial corruption check found, as the agent says; null: nothing. */
    public String corruption;

    String id(int ordinal) {
      return "m" + ordinal;
    }
  }

  public final Etcd etcd;
  public final TreeMap<Integer, Member> members = new TreeMap<>();
  public String desiredPodRevision = "new";
  /** etcd's cluster version and enabled downgrade as every agent reports them; null: unknown. */
  public String clusterVersion;
  public String downgradeTarget;
  /** The schema of every member's database as its agent reports it; null: not reported. */
  public String storageVersion;
  /** The capacity every bound claim reports. */
  public Quantity volumeCapacity = new Quantity("16Gi");

  /** Members of an existing cluster the Etcd joined, in every agent's membership. */
  public final List<Membership> foreign = new ArrayList<>();
  /** The leader's id when a foreign member leads; null: a member with role Leader, if any. */
  public String foreignLeaderId;

  public FakeCluster(Etcd etcd) {
    this.etcd = etcd;
  }

  public Member add(int ordinal, String revision) {
    Member m = new Member();
    m.podRevision = revision;
    members.put(ordinal, m);
    return m;
  }

  public ClusterSnapshot snapshot() {
    EtcdNames names = EtcdNames.of(etcd);
    String volumeRevision = MemberVolumeBuilder.revision(etcd);
    List<Membership> membership = new ArrayList<>();
    members.forEach((i, m) -> {
      if (m.inMembership) {
        membership.add(new Membership(m.id(i), names.member(i), "Learner".equals(m.role)));
      }
    });
    membership.addAll(foreign);
    List<MemberObservation> observations = new ArrayList<>();
    int max = Math.max(members.isEmpty() ? 0 : members.lastKey() + 1,
        etcd.getSpec().getReplicas());
    for (int i = 0; i < max; i++) {
      Member m = members.get(i);
      observations.add(m == null
          ? new MemberObservation(i, names.member(i), Optional.empty(), Optional.empty(),
              Optional.empty())
          : observe(names, i, m, volumeRevision, membership));
    }
    return new ClusterSnapshot(etcd, observations, Optional.empty(), Optional.empty(),
        Instant.parse("2026-01-01T00:00:00Z"));
  }

  /** What the spec asks for: {@link #desiredPodRevision} and the Etcd's volume. */
  public DesiredMembers desired() {
    return new DesiredMembers(desiredPodRevision, MemberVolumeBuilder.revision(etcd),
        MemberVolumeBuilder.desired(etcd));
  }

  private MemberObservation observe(EtcdNames names, int i, Member m, String volumeRevision,
      List<Membership> membership) {
    Optional<Pod> pod = m.podExists ? Optional.of(pod(names.member(i), i, m)) : Optional.empty();
    Optional<PersistentVolumeClaim> pvc = m.hasVolume
        ? Optional.of(pvc(names.pvc(i), volumeRevision)) : Optional.empty();
    Optional<AgentView> agent = m.podExists && m.ready && m.agentAnswers
        ? Optional.of(new AgentView(m.id(i), m.clusterId, m.role, leaderId(), m.raftIndex, true,
            membership, clusterVersion == null ? AgentView.EtcdVersions.UNKNOWN
                : new AgentView.EtcdVersions(release(m).version(), clusterVersion,
                    downgradeTarget, storageVersion), Optional.ofNullable(m.space)))
        : Optional.empty();
    return new MemberObservation(i, names.member(i), pod, pvc, agent,
        Optional.ofNullable(m.restoring), Optional.empty(), Optional.ofNullable(m.corruption));
  }

  private static EtcdRelease release(Member m) {
    return m.etcd == null ? EtcdRelease.DEFAULT : m.etcd;
  }

  private String leaderId() {
    if (foreignLeaderId != null) {
      return foreignLeaderId;
    }
    return members.entrySet().stream().filter(e -> "Leader".equals(e.getValue().role))
        .map(e -> e.getValue().id(e.getKey())).findFirst().orElse("");
  }

  private java.util.Map<String, String> trustedCas(Member m) {
    java.util.Optional<String> checksum = m.trustedCaChecksum != null
        ? java.util.Optional.of(m.trustedCaChecksum)
        : cloud.gardener.druid.operator.model.TrustedCas.of(etcd);
    return checksum.map(c -> java.util.Map.of(
        cloud.gardener.druid.operator.model.TrustedCas.ANNOTATION, c)).orElse(java.util.Map.of());
  }

  private Pod pod(String name, int ordinal, Member m) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(etcd.getMetadata().getNamespace())
          .withUid("uid-" + name)
          .addToLabels(Labels.MEMBER_REVISION, m.podRevision)
          .addToAnnotations(MemberPodBuilder.CONFIG_CHECKSUM_ANNOTATION,
              m.configChecksum != null ? m.configChecksum : EtcdConfigMapBuilder.checksum(etcd))
          .addToAnnotations(trustedCas(m))
          .withDeletionTimestamp(m.terminating ? "2026-01-01T00:00:00Z" : null)
        .endMetadata()
        .withNewSpec().addNewContainer().withName("etcd").withArgs("agent",
            AgentArgs.ETCD_VERSION + release(m).version(), AgentArgs.QUOTA
                + (m.quotaBytes != null ? m.quotaBytes : EtcdDefaults.quotaBytes(etcd)))
          .endContainer().endSpec()
        .withNewStatus().withPodIP("127.0.0." + (ordinal + 1))
          .addNewCondition().withType("Ready").withStatus(m.ready ? "True" : "False")
          .endCondition().endStatus()
        .build();
  }

  private PersistentVolumeClaim pvc(String name, String volumeRevision) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(name).addToLabels(Labels.VOLUME_REVISION, volumeRevision)
        .endMetadata()
        .withNewSpec().withStorageClassName(etcd.getSpec().getStorageClass())
          .withNewResources().addToRequests("storage", EtcdDefaults.storageCapacity(etcd))
          .endResources().endSpec()
        .withNewStatus().withPhase("Bound")
          .addToCapacity("storage", volumeCapacity).endStatus()
        .build();
  }
}
