package cloud.gardener.druid.agent.lease;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The member's lease client against a real API server, authenticated from a kubeconfig. */
@LocalKubernetes
class LeaseClientIT {

  @Test
  void renewsAnExistingLeaseAndKeepsWhatTheOperatorSet(KubernetesClient client,
      TestNamespace namespace) {
    client.leases().resource(new LeaseBuilder().withNewMetadata().withName("etcd-main-0")
        .addToLabels("app.kubernetes.io/part-of", "etcd-main").endMetadata()
        .withNewSpec().withHolderIdentity("before").withLeaseDurationSeconds(40).endSpec()
        .build()).create();
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);

    try (LeaseClient leases = new LeaseClient(client.getConfiguration())) {
      assertThat(leases.renew(namespace.name(), "etcd-main-0", "1a:2b:Leader", now))
          .isEqualTo(new LeaseClient.Outcome.Renewed());
    }

    Lease stored = client.leases().withName("etcd-main-0").get();
    assertThat(stored.getSpec().getHolderIdentity()).isEqualTo("1a:2b:Leader");
    assertThat(stored.getSpec().getRenewTime().toInstant())
        .isEqualTo(now.toInstant().truncatedTo(ChronoUnit.MICROS));
    assertThat(stored.getSpec().getLeaseDurationSeconds()).isEqualTo(40);
    assertThat(stored.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/part-of", "etcd-main");
  }

  @Test
  void renewsAgainOnTheLeaseItWroteBefore(KubernetesClient client, TestNamespace namespace) {
    client.leases().resource(new LeaseBuilder().withNewMetadata().withName("etcd-main-full-snap")
        .endMetadata().withNewSpec().endSpec().build()).create();

    try (LeaseClient leases = new LeaseClient(client.getConfiguration())) {
      ZonedDateTime first = ZonedDateTime.now(ZoneOffset.UTC);
      leases.renew(namespace.name(), "etcd-main-full-snap", "7", first);
      assertThat(leases.renew(namespace.name(), "etcd-main-full-snap", "12", first.plusSeconds(1)))
          .isEqualTo(new LeaseClient.Outcome.Renewed());
    }

    assertThat(client.leases().withName("etcd-main-full-snap").get().getSpec()
        .getHolderIdentity()).isEqualTo("12");
  }

  @Test
  void aLeaseThatAlreadySaysEnoughIsNotWritten(KubernetesClient client,
      TestNamespace namespace) {
    client.leases().resource(new LeaseBuilder().withNewMetadata().withName("etcd-main-delta-snap")
        .endMetadata().withNewSpec().withHolderIdentity("90").endSpec().build()).create();
    String written = client.leases().withName("etcd-main-delta-snap").get().getMetadata()
        .getResourceVersion();

    try (LeaseClient leases = new LeaseClient(client.getConfiguration())) {
      // the compactor's rule: the delta lease never goes back to an older revision
      assertThat(leases.renewIf(namespace.name(), "etcd-main-delta-snap",
          lease -> Long.parseLong(lease.getSpec().getHolderIdentity()) < 80, "80",
          ZonedDateTime.now(ZoneOffset.UTC), 5)).isEqualTo(new LeaseClient.Outcome.Unchanged());
      assertThat(client.leases().withName("etcd-main-delta-snap").get().getMetadata()
          .getResourceVersion()).isEqualTo(written);
      assertThat(leases.renewIf(namespace.name(), "etcd-main-delta-snap",
          lease -> Long.parseLong(lease.getSpec().getHolderIdentity()) < 95, "95",
          ZonedDateTime.now(ZoneOffset.UTC), 5)).isEqualTo(new LeaseClient.Outcome.Renewed());
    }

    assertThat(client.leases().withName("etcd-main-delta-snap").get().getSpec()
        .getHolderIdentity()).isEqualTo("95");
  }

  @Test
  void aMissingLeaseIsReportedAndNotCreated(KubernetesClient client, TestNamespace namespace) {
    try (LeaseClient leases = new LeaseClient(client.getConfiguration())) {
      assertThat(leases.renew(namespace.name(), "etcd-gone-0", "1a:2b:Member",
          ZonedDateTime.now(ZoneOffset.UTC))).isEqualTo(new LeaseClient.Outcome.Missing());
    }

    assertThat(client.leases().withName("etcd-gone-0").get()).isNull();
  }

  @Test
  void aConflictIsRetriedOnceOnAFreshRead(KubernetesClient client, TestNamespace namespace) {
    client.leases().resource(new LeaseBuilder().withNewMetadata().withName("etcd-race-0")
        .endMetadata().withNewSpec().withHolderIdentity("before").endSpec().build()).create();

    try (LeaseClient leases = racing(client, "etcd-race-0", 1)) {
      assertThat(leases.renew(namespace.name(), "etcd-race-0", "1a:2b:Member",
          ZonedDateTime.now(ZoneOffset.UTC))).isEqualTo(new LeaseClient.Outcome.Renewed());
    }

    Lease stored = client.leases().withName("etcd-race-0").get();
    assertThat(stored.getSpec().getHolderIdentity()).isEqualTo("1a:2b:Member");
    assertThat(stored.getMetadata().getAnnotations()).containsEntry("racer", "1");
  }

  @Test
  void twoConflictsInARowAreReportedNotForced(KubernetesClient client, TestNamespace namespace) {
    client.leases().resource(new LeaseBuilder().withNewMetadata().withName("etcd-race-1")
        .endMetadata().withNewSpec().withHolderIdentity("before").endSpec().build()).create();

    try (LeaseClient leases = racing(client, "etcd-race-1", Integer.MAX_VALUE)) {
      assertThat(leases.renew(namespace.name(), "etcd-race-1", "1a:2b:Member",
          ZonedDateTime.now(ZoneOffset.UTC))).isEqualTo(new LeaseClient.Outcome.Conflict());
    }

    Lease stored = client.leases().withName("etcd-race-1").get();
    assertThat(stored.getSpec().getHolderIdentity()).isEqualTo("before");
    assertThat(stored.getMetadata().getAnnotations()).containsEntry("racer", "2");
  }

  /** A lease client whose first {@code races} writes each lose to a write of someone else. */
  private static LeaseClient racing(KubernetesClient client, String name, int races) {
    AtomicInteger raced = new AtomicInteger();
    Interceptor racer = new Interceptor() {
      @Override
      public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        if ("PUT".equals(request.method()) && raced.get() < races) {
          String count = Integer.toString(raced.incrementAndGet());
          client.leases().withName(name).edit(l -> new LeaseBuilder(l).editMetadata()
              .addToAnnotations("racer", count).endMetadata().build());
        }
      }
    };
    return new LeaseClient(HttpClientUtils.getHttpClientFactory()
        .newBuilder(client.getConfiguration()).addOrReplaceInterceptor("racer", racer).build(),
        client.getConfiguration().getMasterUrl());
  }
}
