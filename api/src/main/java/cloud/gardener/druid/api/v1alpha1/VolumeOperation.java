package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/**
 * Progress of a volume change (an addition): recorded before each disruptive step so that an
 * operator restart resumes the flow and never replaces a second member before the first is
 * back in sync.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VolumeOperation {

  @JsonPropertyDescription("Replace or Expand.")
  private String type;

  @JsonPropertyDescription("The Etcd generation whose volume spec is being applied.")
  private Long generation;

  @JsonPropertyDescription("SnapshotPending, Snapshotted, Replacing or Expanding.")
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
