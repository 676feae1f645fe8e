package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import java.util.LinkedHashMap;
import java.util.Map;

/** Labels on managed objects, and the selectors that find them again. */
public final class EtcdLabels {

  public static final String COMPONENT_MEMBER = "etcd-member";
  public static final String COMPONENT_VOLUME = "etcd-volume";

  private EtcdLabels() {
  }

  /** Labels every object managed for this Etcd carries; also the selector of all of them. */
  public static Map<String, String> managed(Etcd etcd) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE);
    labels.put(Labels.PART_OF, etcd.getMetadata().getName());
    return labels;
  }

  /** Selector of the member pods (and of the PDB and services). */
  public static Map<String, String> memberSelector(Etcd etcd) {
    Map<String, String> labels = managed(etcd);
    labels.put(Labels.COMPONENT, COMPONENT_MEMBER);
    return labels;
  }

  public static Map<String, String> volumeSelector(Etcd etcd) {
    Map<String, String> labels = managed(etcd);
    labels.put(Labels.COMPONENT, COMPONENT_VOLUME);
    return labels;
  }

  /** The selector in the string form of the scale subresource ("a=b,c=d"). */
  public static String asSelectorString(Map<String, String> selector) {
    StringBuilder sb = new StringBuilder();
    selector.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append('=').append(v));
    return sb.toString();
  }

  /** User labels first, then ours (ours win on a clash, so selectors keep working). */
  public static Map<String, String> merge(Map<String, String> user, Map<String, String> ours) {
    Map<String, String> merged = new LinkedHashMap<>();
    if (user != null) {
      merged.putAll(user);
    }
    merged.putAll(ours);
    return merged;
  }
}
