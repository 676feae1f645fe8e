package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import java.util.Map;

/** Settings of the client Service. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClientService {

  private Map<String, String> annotations;

  private Map<String, String> labels;

  @Pattern("^(PreferSameZone|PreferSameNode|PreferClose)$")
  @JsonPropertyDescription("Traffic distribution of the client Service: PreferSameZone,"
      + " PreferSameNode or PreferClose.")
  private String trafficDistribution;

  public Map<String, String> getAnnotations() {
    return annotations;
  }

  public void setAnnotations(Map<String, String> annotations) {
    this.annotations = annotations;
  }

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  public String getTrafficDistribution() {
    return trafficDistribution;
  }

  public void setTrafficDistribution(String trafficDistribution) {
    this.trafficDistribution = trafficDistribution;
  }
}
