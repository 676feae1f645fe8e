package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.operator.agent.AgentView;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.operator.model.AgentArgs;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.model.MemberPodBuilder;
import cloud.gardener.druid.operator.model.TrustedCas;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import cloud.gardener.druid.api.member.EtcdRelease;
import java.util.Optional;

/**
 * One member as observed: its pod, its volume, its agent's view of etcd, while it restores
 * from the backup store how far that is (its agent's words), and what etcd's initial
 * corruption check found when it refused the member's data.
 */
public record MemberObservation(int ordinal, String name, Optional<Pod> pod,
    Optional<PersistentVolumeClaim> pvc, Optional<AgentView> agent,
    Optional<String> restoring, Optional<String> initFailure, Optional<String> corruption) {

  /** etcd's alarm when a corruption check found a member's data differs from the leader's. */
  public static final String CORRUPT_ALARM = "CORRUPT";

  public MemberObservation(int ordinal, String name, Optional<Pod> pod,
      Optional<PersistentVolumeClaim> pvc, Optional<AgentView> agent,
      Optional<String> restoring, Optional<String> initFailure) {
    this(ordinal, name, pod, pvc, agent, restoring, initFailure, Optional.empty());
  }

  /**
   * What etcd's corruption checks found on this member: its initial check refused the data,
   * or a CORRUPT alarm names it (the leader's periodic or compaction hash check). The cure
   * either way is a new volume: the member rejoins and receives the leader's data.
   */
  public Optional<String> corruptionFound() {
    if (corruption.isPresent()) {
      return corruption;
    }
    return agent.flatMap(AgentView::space).filter(sp -> sp.alarms().contains(CORRUPT_ALARM))
        .map(sp -> "etcd raised a CORRUPT alarm on this member: a corruption check of the"
            + " leader found its data differs from the leader's; etcd refuses every write while"
            + " the alarm is raised, and this member still answers reads from its data");
  }

  /** {@code initFailure}: why its agent's last initialisation failed, in the agent's words. */
  public MemberObservation(int ordinal, String name, Optional<Pod> pod,
      Optional<PersistentVolumeClaim> pvc, Optional<AgentView> agent,
      Optional<String> restoring) {
    this(ordinal, name, pod, pvc, agent, restoring, Optional.empty());
  }

  /** A member that is not restoring (or whose agent does not say). */
  public MemberObservation(int ordinal, String name, Optional<Pod> pod,
      Optional<PersistentVolumeClaim> pvc, Optional<AgentView> agent) {
    this(ordinal, name, pod, pvc, agent, Optional.empty());
  }

  public boolean podExists() {
    return pod.isPresent();
  }

  public boolean podTerminating() {
    return pod.map(p -> p.getMetadata().getDeletionTimestamp() != null).orElse(false);
  }

  /** The pod runs, is not being deleted and its Ready condition is True. */
  public boolean ready() {
    return pod.filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .filter(p -> p.getStatus() != null && p.getStatus().getConditions() != null)
        .map(p -> p.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .orElse(false);
  }

  /** The member's agent reports it leads etcd. */
  public boolean isLeader() {
    return agent.map(AgentView::isLeader).orElse(false);
  }

  /**
   * A ready voting member: its pod is ready, its agent answers with a healthy etcd, and it is
   * not a learner. Only such a member counts when the cluster may lose another, takes
   * leadership, or carries a membership change.
   */
  public boolean votes() {
    return whyNotVoting().isEmpty();
  }

  /** Why this member is not a ready voting member; empty when it is one. */
  public Optional<String> whyNotVoting() {
    if (!ready()) {
      return Optional.of(name + " is not ready");
    }
    if (agent.isEmpty()) {
      return Optional.of("the agent of " + name + " does not answer");
    }
    if (!agent.get().healthy()) {
      return Optional.of(name + " is not healthy");
    }
    if (agent.get().isLearner()) {
      return Optional.of(name + " is a learner catching up");
    }
    return Optional.empty();
  }

  /** The pod runs etcd with peer TLS (its agent is given a peer TLS directory). */
  public boolean runsPeerTls() {
    return pod.filter(p -> p.getSpec() != null).map(p -> p.getSpec().getContainers().stream()
        .anyMatch(c -> c.getArgs() != null && AgentArgs.peerTls(c.getArgs()))).orElse(false);
  }

  /** The etcd the member's pod runs (its agent's --etcd-version), empty without a pod. */
  public Optional<EtcdRelease> podEtcdRelease() {
    return pod.filter(p -> p.getSpec() != null).map(p -> p.getSpec().getContainers().stream()
        .filter(c -> c.getArgs() != null && c.getArgs().contains("agent")).findFirst()
        .map(c -> AgentArgs.etcdRelease(c.getArgs())).orElse(EtcdRelease.DEFAULT));
  }

  /** The space quota the member's pod gives etcd (its agent's argument), empty without one. */
  public Optional<Long> podQuotaBytes() {
    return pod.filter(p -> p.getSpec() != null).flatMap(p -> p.getSpec().getContainers().stream()
        .filter(c -> c.getArgs() != null && c.getArgs().contains("agent")).findFirst()
        .flatMap(c -> AgentArgs.quotaBytes(c.getArgs())));
  }

  /** The PVC waits for a pod start to finish growing its file system. */
  public boolean fileSystemResizePending() {
    return pvc.filter(p -> p.getStatus() != null && p.getStatus().getConditions() != null)
        .map(p -> p.getStatus().getConditions().stream().anyMatch(c ->
            "FileSystemResizePending".equals(c.getType()) && "True".equals(c.getStatus())))
        .orElse(false);
  }

  public Optional<String> podRevision() {
    return pod.map(p -> p.getMetadata().getLabels()).map(l -> l.get(Labels.MEMBER_REVISION));
  }

  /** The checksum of the etcd configuration the pod was started with. */
  public Optional<String> configChecksum() {
    return pod.map(p -> p.getMetadata().getAnnotations())
        .map(a -> a.get(MemberPodBuilder.CONFIG_CHECKSUM_ANNOTATION));
  }

  /** The checksum of the CA bundles the pod was started with ({@link TrustedCas}). */
  public Optional<String> trustedCaChecksum() {
    return pod.map(p -> p.getMetadata().getAnnotations())
        .map(a -> a.get(TrustedCas.ANNOTATION));
  }

  public Optional<String> volumeRevision() {
    return pvc.map(p -> p.getMetadata().getLabels()).map(l -> l.get(Labels.VOLUME_REVISION));
  }

  public boolean podUpdated(String desiredRevision) {
    return podRevision().filter(desiredRevision::equals).isPresent() && !podTerminating();
  }

  /**
   * The pod carries the labels and annotations the spec asks for (by their hash); always true
   * when {@code desiredRevision} is null.
   */
  public boolean metadataUpdated(String desiredRevision) {
    return desiredRevision == null || pod.map(p -> p.getMetadata().getAnnotations())
        .map(a -> desiredRevision.equals(a.get(Annotations.METADATA_REVISION))).orElse(false);
  }

  /**
   * The pod runs the desired revision with the desired labels and annotations on a volume of
   * the desired revision and size.
   */
  public boolean updated(DesiredMembers desired) {
    return podUpdated(desired.podRevision()) && metadataUpdated(desired.metadataRevision())
        && volumeUpdated(desired.volumeRevision(), desired.capacity());
  }

  /**
   * The PVC is bound, carries the desired volume revision and, if it was grown, its status
   * capacity has reached the request.
   */
  public boolean volumeUpdated(String desiredRevision, Quantity desiredCapacity) {
    return pvc.filter(p -> p.getStatus() != null && "Bound".equals(p.getStatus().getPhase()))
        .filter(p -> desiredRevision.equals(p.getMetadata().getLabels() == null ? null
            : p.getMetadata().getLabels().get(Labels.VOLUME_REVISION)))
        .filter(p -> capacityReached(p, desiredCapacity))
        .isPresent();
  }

  private static boolean capacityReached(PersistentVolumeClaim pvc, Quantity desired) {
    Quantity actual = pvc.getStatus().getCapacity() == null ? null
        : pvc.getStatus().getCapacity().get("storage");
    return actual != null && actual.getNumericalAmount().compareTo(desired.getNumericalAmount()) >= 0;
  }
}
