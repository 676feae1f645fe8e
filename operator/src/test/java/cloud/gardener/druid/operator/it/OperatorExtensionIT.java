package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import cloud.gardener.druid.api.v1alpha1.DefragmentConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** What {@link WithOperator} gives a failing test: the diagnostics of its namespace. */
class OperatorExtensionIT {

  /** Run only by the test below (the build does not pick up nested classes). */
  @WithOperator
  static class FailingAfterRejection {

    @Test
    void fails(KubernetesClient client) {
      createTask(client, "probe", "nobody", c -> c.setDefragment(new DefragmentConfig()), null);
      awaitTaskState(client, "probe", "Rejected");
      throw new AssertionError("deliberate failure");
    }

    /** Runs before the operator stops: the task's finalizer needs it. */
    @AfterAll
    static void deleteTask(KubernetesClient client) {
      client.resources(EtcdOpsTask.class).delete();
    }
  }

  @Test
  void aFailedTestCarriesTheDiagnosticsOfItsNamespace() {
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
        .selectors(selectClass(FailingAfterRejection.class)).build(), listener);

    assertThat(listener.getSummary().getFailures()).singleElement()
        .extracting(TestExecutionSummary.Failure::getException).satisfies(failure -> {
          assertThat(failure).hasMessage("deliberate failure");
          assertThat(failure.getSuppressed()).singleElement().isInstanceOf(Diagnostics.class)
              .satisfies(d -> assertThat(d.getMessage())
                  .contains("diagnostics of namespace failing-after-rejection-",
                      "EtcdOpsTask probe status:", "Rejected", "ERR_ETCD_NOT_FOUND"));
        });
  }
}
