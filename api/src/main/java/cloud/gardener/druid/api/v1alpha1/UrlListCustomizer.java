package cloud.gardener.druid.api.v1alpha1;

import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRuleBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;

/**
 * Gives the URL lists named in the input (comma-separated properties of the annotated class)
 * upstream's schema: a set of http:// or https:// URLs of at most 2048 characters each. The
 * annotations cannot reach list items; the generator's merge-patch customizer replaces whole
 * property maps, so this one edits the named properties in place.
 */
public final class UrlListCustomizer implements SchemaCustomizer.Customizer {

  static final int MAX_URL_LENGTH = 2048;

  @Override
  public JSONSchemaProps apply(JSONSchemaProps schema, String input,
      KubernetesSerialization serialization) {
    for (String property : input.split(",")) {
      JSONSchemaProps list = schema.getProperties().get(property.trim());
      if (list == null || list.getItems() == null || list.getItems().getSchema() == null) {
        throw new IllegalArgumentException("no list property " + property + " to customize");
      }
      list.setXKubernetesListType("set");
      JSONSchemaProps item = list.getItems().getSchema();
      item.setMaxLength((long) MAX_URL_LENGTH);
      item.setXKubernetesValidations(List.of(new ValidationRuleBuilder()
          .withRule("(self.startsWith('http://') || self.startsWith('https://')) && isURL(self)")
          .withMessage("must be a valid http:// or https:// URL (e.g., https://10.0.0.1:2380)")
          .build()));
    }
    return schema;
  }
}
