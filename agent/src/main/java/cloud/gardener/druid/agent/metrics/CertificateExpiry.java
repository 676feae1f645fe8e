package cloud.gardener.druid.agent.metrics;

import cloud.gardener.druid.agent.tls.TlsContexts;
import cloud.gardener.druid.agent.tls.TlsFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * {@value #NAME}{usage, file}: when the earliest certificate in each TLS file of the member
 * expires (unix seconds), read from the mounted file at each scrape, so a renewed Secret shows
 * as soon as the kubelet has updated the mount (etcd and the agent API re-read the files too).
 * Usages: {@code client} (etcd's client URLs, also the agent's client), {@code peer} (etcd's
 * peer URLs), {@code agent-api} (the agent's HTTPS API); files {@code tls.crt} and
 * {@code ca.crt}. A file that cannot be read has no series (the agent's log says why when it
 * loads it). Not in etcd-backup-restore: an addition.
 */
public final class CertificateExpiry {

  public static final String NAME = "etcddruid_tls_certificate_expiry_timestamp_seconds";

  /** One certificate file of the member and what it is used for. */
  public record Watched(String usage, String file, Path path) {
  }

  private final List<Watched> files;

  public CertificateExpiry(List<Watched> files) {
    this.files = List.copyOf(files);
  }

  /** The CA bundle and certificate of each TLS identity present. */
  public static CertificateExpiry of(Optional<TlsFiles> client, Optional<TlsFiles> peer,
      Optional<TlsFiles> agentApi) {
    List<Watched> files = new ArrayList<>();
    add(files, "client", client);
    add(files, "peer", peer);
    add(files, "agent-api", agentApi);
    return new CertificateExpiry(files);
  }

  private static void add(List<Watched> files, String usage, Optional<TlsFiles> tls) {
    tls.ifPresent(t -> {
      files.add(new Watched(usage, "tls.crt", t.cert()));
      if (t.ca() != null) {
        files.add(new Watched(usage, "ca.crt", t.ca()));
      }
    });
  }

  /** The family in the Prometheus text format 0.0.4 (nothing without TLS files). */
  public String scrape() {
    if (files.isEmpty()) {
      return "";
    }
    MetricFamily family = MetricFamily.gauge(NAME, "When the earliest certificate of the"
        + " member's TLS file expires (unix seconds).", "file", "usage");
    for (Watched w : files) {
      notAfter(w.path()).ifPresent(t -> family.series(w.file(), w.usage()).set(t));
    }
    StringBuilder out = new StringBuilder();
    family.writeTo(out);
    return out.toString();
  }

  /** The earliest notAfter (unix seconds) of the PEM file's certificates. */
  static OptionalDouble notAfter(Path pem) {
    try {
      return TlsContexts.certificates(pem).stream()
          .mapToDouble(c -> c.getNotAfter().toInstant().getEpochSecond()).min();
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      return OptionalDouble.empty();
    }
  }
}
