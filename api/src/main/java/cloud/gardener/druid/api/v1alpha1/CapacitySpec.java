package cloud.gardener.druid.api.v1alpha1;

import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.types.Quantities;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * Extension of this operator: how the space of etcd's database is watched and kept
 * (docs/capacity.md). The forecasts are always reported; what is done about them is set here.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CapacitySpec {

  @Default("true")
  @JsonPropertyDescription("Act on the forecasts (default true): defragment early, recover from"
      + " etcd's NOSPACE alarm, and raise the quota when maxQuota allows it. false: report only.")
  private Boolean automatic;

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  @Default("6h")
  @JsonPropertyDescription("Defragment when the database is forecast to reach the quota (or the"
      + " volume to fill) within this duration (default 6h).")
  private GoDuration defragmentWithin;

  @Min(10)
  @Max(99)
  @Default("80")
  @JsonPropertyDescription("Defragment when a member's database is this percentage of the quota"
      + " or more (default 80), whatever the forecast.")
  private Integer highWaterPercent;

  @Min(10)
  @Max(95)
  @Default("50")
  @JsonPropertyDescription("Defragment when this percentage of a member's database or more is"
      + " free pages (default 50) and they make up a tenth of the quota or more.")
  private Integer fragmentationPercent;

  @ValidationRule(value = Quantities.RULE, message = Quantities.MESSAGE)
  @JsonPropertyDescription("The largest quota the operator may raise spec.etcd.quota to when"
      + " the data in use grows toward it; unset (the default): the quota is never raised. The"
      + " volumes are grown in place as far as such a quota needs (an expandable class only).")
  private Quantity maxQuota;

  @Default("false")
  @JsonPropertyDescription("While etcd's NOSPACE alarm is raised, compact the key history to the"
      + " current revision before defragmenting (default false: old revisions are kept, and"
      + " only a defragmentation and a raised quota can free the space).")
  private Boolean compactOnNoSpace;

  public Boolean getAutomatic() {
    return automatic;
  }

  public void setAutomatic(Boolean automatic) {
    this.automatic = automatic;
  }

  public GoDuration getDefragmentWithin() {
    return defragmentWithin;
  }

  public void setDefragmentWithin(GoDuration defragmentWithin) {
    this.defragmentWithin = defragmentWithin;
  }

  public Integer getHighWaterPercent() {
    return highWaterPercent;
  }

  public void setHighWaterPercent(Integer highWaterPercent) {
    this.highWaterPercent = highWaterPercent;
  }

  public Integer getFragmentationPercent() {
    return fragmentationPercent;
  }

  public void setFragmentationPercent(Integer fragmentationPercent) {
    this.fragmentationPercent = fragmentationPercent;
  }

  public Quantity getMaxQuota() {
    return maxQuota;
  }

  public void setMaxQuota(Quantity maxQuota) {
    this.maxQuota = maxQuota;
  }

  public Boolean getCompactOnNoSpace() {
    return compactOnNoSpace;
  }

  public void setCompactOnNoSpace(Boolean compactOnNoSpace) {
    this.compactOnNoSpace = compactOnNoSpace;
  }
}
