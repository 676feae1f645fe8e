package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;


/** Hibernation options (an addition to the upstream API). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class HibernationSpec {

  @JsonPropertyDescription("Delete the member volumes after the final full snapshot; waking up"
      + " restores from the backup store.")
  private Boolean deleteVolumes;

  public Boolean getDeleteVolumes() {
    return deleteVolumes;
  }

  public void setDeleteVolumes(Boolean deleteVolumes) {
    this.deleteVolumes = deleteVolumes;
  }
}
