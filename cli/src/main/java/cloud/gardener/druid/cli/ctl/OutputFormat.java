package cloud.gardener.druid.cli.ctl;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** kubectl's {@code -o}: json and yaml print the objects as the API serves them. */
enum OutputFormat {
  json, yaml, wide;

  /** One object. */
  String print(Object object) {
    return this == yaml ? Serialization.asYaml(object) : Serialization.asJson(object) + "\n";
  }

  /** Several objects, as kubectl prints a list: {@code kind: List}. */
  String printList(List<?> items) {
    Map<String, Object> list = new LinkedHashMap<>();
    list.put("apiVersion", "v1");
    list.put("kind", "List");
    list.put("items", items);
    return print(list);
  }
}
