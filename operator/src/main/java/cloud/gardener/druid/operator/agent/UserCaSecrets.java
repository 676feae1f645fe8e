package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.Secret;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

/**
 * The CA Secrets of {@code spec.backup.tls}, read from the API server (they are the user's,
 * outside the operator's label-selected caches) once per Etcd and kept: read again only when
 * the Etcd's generation changes (its spec, e.g. another Secret), after a failed TLS handshake
 * with one of its agents ({@link #forget}; a rotated CA), or after {@link #TTL} plus up to 10%
 * jitter, so that hundreds of idle Etcds with TLS cost no request at their resyncs, and their
 * re-reads do not line up. Memory: one Secret per such Etcd, no watch.
 */
final class UserCaSecrets {

  static final Duration TTL = Duration.ofMinutes(10);

  /** Reads a Secret from the API server; throws when it is missing. */
  interface Reader {
    Secret read(String namespace, String name);
  }

  private record Kept(String secretName, long generation, Secret secret, Instant until) {
  }

  private final Reader reader;
  private final Clock clock;
  private final DoubleSupplier random;
  private final Map<String, Kept> byEtcd = new ConcurrentHashMap<>();

  UserCaSecrets(Reader reader, Clock clock, DoubleSupplier random) {
    this.reader = reader;
    this.clock = clock;
    this.random = random;
  }

  /** The Secret {@code secretName} in the Etcd's namespace, kept as described above. */
  Secret of(Etcd etcd, String secretName) {
    String namespace = etcd.getMetadata().getNamespace();
    String key = namespace + "/" + etcd.getMetadata().getName();
    long generation = etcd.getMetadata().getGeneration() == null ? 0
        : etcd.getMetadata().getGeneration();
    Instant now = clock.instant();
    Kept kept = byEtcd.get(key);
    if (kept != null && kept.secretName().equals(secretName)
        && kept.generation() == generation && now.isBefore(kept.until())) {
      return kept.secret();
    }
    Secret secret = reader.read(namespace, secretName);
    long jitterMillis = (long) (TTL.toMillis() * 0.1 * random.getAsDouble());
    byEtcd.put(key, new Kept(secretName, generation, secret,
        now.plus(TTL).plusMillis(jitterMillis)));
    return secret;
  }

  /** The next use reads the Etcd's CA Secret again. */
  void forget(String namespace, String etcd) {
    byEtcd.remove(namespace + "/" + etcd);
  }
}
