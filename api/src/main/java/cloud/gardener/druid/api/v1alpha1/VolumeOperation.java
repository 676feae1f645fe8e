package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Progress of a volume change (an addition): recorded before each disruptive step so that an
 * operator restart resumes the flow and never replaces a second member before the first is
 * back in sync.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VolumeOperation {

  public static final String TYPE_REPLACE = "Replace";
  public static final String TYPE_EXPAND = "Expand";
  public static final String TYPE_REPLACE_MEMBER_VOLUME = "ReplaceMemberVolume";
  public static final String TYPE_RECOVER_FROM_QUORUM_LOSS = "RecoverFromQuorumLoss";
  public static final String TYPE_HIBERNATE_DELETE_VOLUMES = "HibernateDeleteVolumes";

  public static final String PHASE_SNAPSHOT_PENDING = "SnapshotPending";
  public static final String PHASE_SNAPSHOTTED = "Snapshotted";
  public static final String PHASE_REPLACING = "Replacing";
  public static final String PHASE_EXPANDING = "Expanding";
  public static final String PHASE_REMOVING_MEMBERS = "RemovingMembers";
  public static final String PHASE_VOLUMES_DELETED = "VolumesDeleted";
  public static final String PHASE_RESTORING = "Restoring";
  public static final String PHASE_COMPLETED = "Completed";
  public static final String PHASE_FAILED = "Failed";

  /**
   * The operations the operator records (growth in place is not recorded). Each maps to the
   * string of {@code type}, which stays the API field.
   */
  public enum Kind {
    REPLACE(TYPE_REPLACE),
    REPLACE_MEMBER_VOLUME(TYPE_REPLACE_MEMBER_VOLUME),
    RECOVER_FROM_QUORUM_LOSS(TYPE_RECOVER_FROM_QUORUM_LOSS),
    HIBERNATE_DELETE_VOLUMES(TYPE_HIBERNATE_DELETE_VOLUMES);

    private final String type;

    Kind(String type) {
      this.type = type;
    }

    /** The value of {@code status.volumeOperation.type}. */
    public String type() {
      return type;
    }

    /** The kind named by {@code type}; empty for a type this operator does not record. */
    public static Optional<Kind> of(String type) {
      return Arrays.stream(values()).filter(k -> k.type.equals(type)).findFirst();
    }
  }

  @JsonPropertyDescription("Replace, Expand, ReplaceMemberVolume, RecoverFromQuorumLoss or"
      + " HibernateDeleteVolumes.")
  private String type;

  @JsonPropertyDescription("The EtcdOpsTask this operation carries out, if any.")
  private String task;

  @JsonPropertyDescription("The Etcd generation whose volume spec is being applied.")
  private Long generation;

  @JsonPropertyDescription("SnapshotPending, Snapshotted, Replacing, Expanding, RemovingMembers,"
      + " VolumesDeleted, Restoring, Completed or Failed.")
  private String phase;

  @JsonPropertyDescription("Revision of the full snapshot taken before the first deletion.")
  private Long snapshotRevision;

  @JsonPropertyDescription("The member whose volume is being changed now.")
  private String currentMember;

  @JsonPropertyDescription("Members whose volumes are done.")
  private List<String> completedMembers;

  private String startedAt;

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  /** The typed {@link #getType()}; empty for a type this operator does not record. */
  public Optional<Kind> kind() {
    return Kind.of(type);
  }

  /** A field-by-field copy (the list of completed members is shared: it is never mutated). */
  public VolumeOperation copy() {
    VolumeOperation c = new VolumeOperation();
    c.type = type;
    c.task = task;
    c.generation = generation;
    c.phase = phase;
    c.snapshotRevision = snapshotRevision;
    c.currentMember = currentMember;
    c.completedMembers = completedMembers;
    c.startedAt = startedAt;
    return c;
  }

  /** A copy in {@code phase}. */
  public VolumeOperation withPhase(String phase) {
    VolumeOperation c = copy();
    c.phase = phase;
    return c;
  }

  public String getTask() {
    return task;
  }

  public void setTask(String task) {
    this.task = task;
  }

  @JsonIgnore
  public boolean isFinished() {
    return PHASE_COMPLETED.equals(phase) || PHASE_FAILED.equals(phase);
  }

  public Long getGeneration() {
    return generation;
  }

  public void setGeneration(Long generation) {
    this.generation = generation;
  }

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public Long getSnapshotRevision() {
    return snapshotRevision;
  }

  public void setSnapshotRevision(Long snapshotRevision) {
    this.snapshotRevision = snapshotRevision;
  }

  public String getCurrentMember() {
    return currentMember;
  }

  public void setCurrentMember(String currentMember) {
    this.currentMember = currentMember;
  }

  public List<String> getCompletedMembers() {
    return completedMembers;
  }

  public void setCompletedMembers(List<String> completedMembers) {
    this.completedMembers = completedMembers;
  }

  public String getStartedAt() {
    return startedAt;
  }

  public void setStartedAt(String startedAt) {
    this.startedAt = startedAt;
  }
}
