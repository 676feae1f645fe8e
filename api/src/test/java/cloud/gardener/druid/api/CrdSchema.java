package cloud.gardener.druid.api;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.Optional;

/** Navigates the openAPIV3Schema of a generated CRD by dotted paths ("spec.etcd.quota", "a[].b"). */
final class CrdSchema {

  private final JSONSchemaProps root;

  private CrdSchema(JSONSchemaProps root) {
    this.root = root;
  }

  static CrdSchema of(String plural) {
    CustomResourceDefinition crd = Crds.all().stream()
        .filter(c -> c.getSpec().getNames().getPlural().equals(plural))
        .findFirst().orElseThrow();
    return new CrdSchema(crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema());
  }

  Optional<JSONSchemaProps> find(String path) {
    JSONSchemaProps node = root;
    for (String part : path.split("\\.")) {
      boolean array = part.endsWith("[]");
      String name = array ? part.substring(0, part.length() - 2) : part;
      if (node.getProperties() == null || !node.getProperties().containsKey(name)) {
        return Optional.empty();
      }
      node = node.getProperties().get(name);
      if (array) {
        if (node.getItems() == null || node.getItems().getSchema() == null) {
          return Optional.empty();
        }
        node = node.getItems().getSchema();
      }
    }
    return Optional.of(node);
  }

  JSONSchemaProps get(String path) {
    return find(path).orElseThrow(() -> new AssertionError("no schema at " + path));
  }

  boolean isRequired(String path) {
    int dot = path.lastIndexOf('.');
    JSONSchemaProps parent = dot < 0 ? root : get(path.substring(0, dot));
    String leaf = path.substring(dot + 1);
    return parent.getRequired() != null && parent.getRequired().contains(leaf);
  }
}
