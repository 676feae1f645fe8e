package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.PeerTLSConfig;
import io.fabric8.kubernetes.api.model.SecretReference;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TrustedCasTest {

  private final Map<String, Secret> secrets = new HashMap<>();

  @Test
  void withoutTlsThereIsNoChecksum() {
    assertThat(TrustedCas.compute(Etcds.etcd("e", 3), this::secret)).isEmpty();
  }

  @Test
  void theChecksumFollowsThePeerBundleTheMembersAreGivenOnlyNotTheLeaf() {
    Etcd etcd = peerTls(Etcds.etcd("e", 3), "bundle");
    put("e-peer-tls-in-use", "ca.crt", "CA-1");
    put("e-peer-tls-in-use", "tls.crt", "LEAF-1");
    Optional<String> first = TrustedCas.compute(etcd, this::secret);

    put("e-peer-tls-in-use", "tls.crt", "LEAF-2");
    assertThat(TrustedCas.compute(etcd, this::secret)).isEqualTo(first).isPresent();
    put("peer-ca", "bundle", "CA-2"); // the user's: given to the members step by step
    assertThat(TrustedCas.compute(etcd, this::secret)).isEqualTo(first);
    put("e-peer-tls-in-use", "ca.crt", "CA-1CA-2");
    assertThat(TrustedCas.compute(etcd, this::secret)).isNotEqualTo(first).isPresent();
  }

  @Test
  void aMissingSecretIsAnEmptyBundleNotAnError() {
    Etcd etcd = peerTls(Etcds.etcd("e", 3), null);
    assertThat(TrustedCas.compute(etcd, this::secret)).isPresent();
  }

  @Test
  void theChecksumIsPartOfThePodRevisionAndKeptByAnInPlaceMetadataUpdate() {
    OperatorSettings settings = OperatorSettings.defaults();
    Etcd one = TrustedCas.withChecksum(Etcds.etcd("e", 3), Optional.of("one"));
    Etcd two = TrustedCas.withChecksum(Etcds.etcd("e", 3), Optional.of("two"));

    assertThat(MemberPodBuilder.revision(one, settings))
        .isNotEqualTo(MemberPodBuilder.revision(two, settings));
    Pod running = MemberPodBuilder.build(one, settings, 0);
    assertThat(running.getMetadata().getAnnotations()).containsEntry(TrustedCas.ANNOTATION, "one");
    assertThat(MemberPodBuilder.metadata(two, settings, 0, running).getAnnotations())
        .containsEntry(TrustedCas.ANNOTATION, "one");
    assertThat(one.getMetadata().getAnnotations()).containsEntry(TrustedCas.ANNOTATION, "one");
  }

  @Test
  void aChangeIsABundleReplacedNotTlsTurnedOnNorAPodBeforeTheChecksum() {
    assertThat(TrustedCas.changed(Optional.of("a"), Optional.of("b"))).isTrue();
    assertThat(TrustedCas.changed(Optional.of("a"), Optional.of("a"))).isFalse();
    assertThat(TrustedCas.changed(Optional.empty(), Optional.of("b"))).isFalse();
  }

  private static Etcd peerTls(Etcd etcd, String dataKey) {
    PeerTLSConfig tls = new PeerTLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName("peer-ca");
    ca.setDataKey(dataKey);
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName("peer-server");
    tls.setServerTLSSecretRef(server);
    etcd.getSpec().getEtcd().setPeerUrlTls(tls);
    return etcd;
  }

  private void put(String name, String key, String value) {
    Secret old = secrets.get(name);
    secrets.put(name, new SecretBuilder(old != null ? old : new SecretBuilder().withNewMetadata()
        .withName(name).endMetadata().build())
        .addToData(key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)))
        .build());
  }

  private Secret secret(String namespace, String name) {
    return secrets.get(name);
  }
}
