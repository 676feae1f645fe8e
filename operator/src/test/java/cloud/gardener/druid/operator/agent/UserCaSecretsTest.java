package cloud.gardener.druid.operator.agent;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.testenv.time.ManualClock;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The user's CA Secret of an idle Etcd with TLS is read once, not at every resync. */
class UserCaSecretsTest {

  private final List<String> reads = new ArrayList<>();
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));
  private double random = 1.0;
  private final UserCaSecrets secrets = new UserCaSecrets((ns, name) -> {
    reads.add(ns + "/" + name);
    return new SecretBuilder().withNewMetadata().withNamespace(ns).withName(name)
        .withResourceVersion("" + reads.size()).endMetadata().build();
  }, clock, () -> random);

  private static Etcd etcd(String name, long generation) {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withNamespace("ns").withName(name)
        .withGeneration(generation).build());
    return etcd;
  }

  @Test
  void anIdleEtcdReadsItsCaOnceUntilTheTtlPasses() {
    Secret first = secrets.of(etcd("a", 1), "ca");
    for (int resync = 0; resync < 19; resync++) {
      clock.advance(Duration.ofSeconds(30));
      assertThat(secrets.of(etcd("a", 1), "ca")).isSameAs(first);
    }
    assertThat(reads).containsExactly("ns/ca");

    // 10 min + up to 10% jitter (here all of it: 11 min)
    clock.set(Instant.parse("2026-12-01T10:10:59Z"));
    secrets.of(etcd("a", 1), "ca");
    assertThat(reads).hasSize(1);
    clock.set(Instant.parse("2026-12-01T10:11:00Z"));
    assertThat(secrets.of(etcd("a", 1), "ca")).isNotSameAs(first);
    assertThat(reads).hasSize(2);
  }

  @Test
  void aSpecChangeAnotherSecretOrAFailedHandshakeReadsItAgain() {
    random = 0;
    secrets.of(etcd("a", 1), "ca");
    secrets.of(etcd("b", 1), "ca");
    assertThat(reads).containsExactly("ns/ca", "ns/ca");

    secrets.of(etcd("a", 2), "ca");
    assertThat(reads).as("new generation").hasSize(3);
    secrets.of(etcd("a", 2), "ca-2");
    assertThat(reads).as("another secret").containsSequence("ns/ca-2");
    secrets.of(etcd("a", 2), "ca-2");
    assertThat(reads).hasSize(4);

    secrets.forget("ns", "a");
    secrets.of(etcd("a", 2), "ca-2");
    secrets.of(etcd("b", 1), "ca");
    assertThat(reads).as("after a failed handshake, only that Etcd's").hasSize(5);
  }
}
