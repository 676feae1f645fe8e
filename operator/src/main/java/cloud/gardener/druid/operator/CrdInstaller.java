package cloud.gardener.druid.operator;

import cloud.gardener.druid.api.Crds;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.TimeUnit;

/**
 * Applies the druid CRDs (server-side) and waits until the API server serves each of them, so
 * that the controllers can start right after. Used by {@code druid operator --install-crds},
 * {@code druid local up} and the tests; a production install gets the CRDs from the chart.
 */
public final class CrdInstaller {

  private static final long ESTABLISHED_SECONDS = 60;

  private CrdInstaller() {
  }

  public static void install(KubernetesClient client, String fieldManager) {
    for (CustomResourceDefinition crd : Crds.all()) {
      client.resource(crd).fieldManager(fieldManager).forceConflicts().serverSideApply();
    }
    for (CustomResourceDefinition crd : Crds.all()) {
      client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
          .waitUntilCondition(c -> c != null && c.getStatus() != null
              && c.getStatus().getConditions() != null
              && c.getStatus().getConditions().stream().anyMatch(
                  x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())),
              ESTABLISHED_SECONDS, TimeUnit.SECONDS);
    }
  }
}
