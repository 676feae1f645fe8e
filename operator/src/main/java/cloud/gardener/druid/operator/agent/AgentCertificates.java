package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.tls.Certificates.Issued;
import cloud.gardener.druid.api.tls.Certificates.Use;
import cloud.gardener.druid.api.tls.PemKeys;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The certificates of one Etcd's agent API that the operator issues and rotates itself, as
 * the PEM entries of a Secret: a CA of this Etcd only, the agents' server certificate (for
 * the member host names of the peer domain) and the operator's client certificate (common
 * name {@link AgentApi#OPERATOR_CLIENT_NAME}, the only caller the agents accept).
 *
 * <p>Rotation without downtime, as Secrets reach pods late (the kubelet rewrites mounted
 * Secrets within about a minute): a certificate nearing its end is re-issued by the same CA
 * (every party already trusts it). A CA nearing its end is replaced in three steps, each
 * {@link #PROPAGATION} apart: (1) the new CA joins the bundle ({@code ca.crt}) while the
 * certificates stay; (2) the certificates are re-issued by the new CA, which every agent
 * already trusts, and the operator trusts both CAs; (3) the old CA leaves the bundle. The
 * operator reads the Secret directly, so it is never behind the agents.
 */
public final class AgentCertificates {

  /** The CA bundle: the CA that signs first, then one it replaces during a rotation. */
  public static final String CA_BUNDLE = "ca.crt";
  public static final String CA_KEY = "ca.key";
  public static final String SERVER_CERT = "tls.crt";
  public static final String SERVER_KEY = "tls.key";
  public static final String CLIENT_CERT = "client.crt";
  public static final String CLIENT_KEY = "client.key";

  static final Duration CA_VALIDITY = Duration.ofDays(365);
  static final Duration CERT_VALIDITY = Duration.ofDays(90);
  static final Duration CA_RENEWAL = Duration.ofDays(60);
  static final Duration CERT_RENEWAL = Duration.ofDays(30);
  static final Duration PROPAGATION = Duration.ofMinutes(5);
  /** Certificates are valid from this long before they are issued (clock skew). */
  static final Duration BACKDATE = Duration.ofMinutes(5);

  private AgentCertificates() {
  }

  /** The host names the agents' server certificate names: every member of the Etcd. */
  public static List<String> serverNames(String etcd, String namespace) {
    String peerDomain = etcd + "-peer." + namespace + ".svc";
    return List.of("*." + peerDomain, "*." + peerDomain + ".cluster.local");
  }

  /**
   * The Secret entries (PEM text by key) at {@code now}, from the current ones (empty for a
   * new Secret); the same map when nothing is due.
   */
  public static Map<String, String> next(Map<String, String> current, List<String> serverNames,
      Instant now) {
    Optional<State> parsed = State.parse(current);
    if (parsed.isEmpty() || !parsed.get().signer().getNotAfter().toInstant().isAfter(now)) {
      return fresh(serverNames, now); // nothing usable: a new CA (agents reload it)
    }
    State s = parsed.get();
    List<X509Certificate> bundle = new ArrayList<>(s.bundle().stream()
        .filter(c -> c.getNotAfter().toInstant().isAfter(now)).toList());
    Issued signer = new Issued(s.signer(), s.signerKey());
    if (remaining(s.signer(), now).compareTo(CA_RENEWAL) < 0) {
      // step 1: the new CA joins the bundle; certificates stay until it has reached every pod
      Issued next = ca(now);
      bundle.add(0, next.certificate());
      return data(bundle, next, s.server(), s.client());
    }
    boolean signerPropagated = !issuedAt(s.signer()).plus(PROPAGATION).isAfter(now);
    Issued server = s.server();
    if (!good(server, signer, now) || !names(server.certificate()).equals(Set.copyOf(serverNames))) {
      if (signerPropagated || !usable(server, bundle, now)) {
        server = Certificates.issue(signer, "etcd-druid-agent", serverNames, Use.SERVER,
            now.minus(BACKDATE), now.plus(CERT_VALIDITY));
      }
    }
    Issued client = s.client();
    if (!good(client, signer, now)) {
      if (signerPropagated || !usable(client, bundle, now)) {
        client = Certificates.issue(signer, AgentApi.OPERATOR_CLIENT_NAME, List.of(), Use.CLIENT,
            now.minus(BACKDATE), now.plus(CERT_VALIDITY));
      }
    }
    if (bundle.size() > 1 && signedBy(server, signer) && signedBy(client, signer)
        && !issuedAt(server.certificate()).plus(PROPAGATION).isAfter(now)
        && !issuedAt(client.certificate()).plus(PROPAGATION).isAfter(now)) {
      bundle = List.of(s.signer()); // step 3: no pod presents the old CA's certificates
    }
    Map<String, String> next = data(bundle, signer, server, client);
    return next.equals(current) ? current : next;
  }

  private static Map<String, String> fresh(List<String> serverNames, Instant now) {
    Issued ca = ca(now);
    return data(List.of(ca.certificate()), ca,
        Certificates.issue(ca, "etcd-druid-agent", serverNames, Use.SERVER, now.minus(BACKDATE),
            now.plus(CERT_VALIDITY)),
        Certificates.issue(ca, AgentApi.OPERATOR_CLIENT_NAME, List.of(), Use.CLIENT,
            now.minus(BACKDATE), now.plus(CERT_VALIDITY)));
  }

  private static Issued ca(Instant now) {
    return Certificates.ca("etcd-druid-agent-api-ca", now.minus(BACKDATE), now.plus(CA_VALIDITY));
  }

  private static Map<String, String> data(List<X509Certificate> bundle, Issued signer,
      Issued server, Issued client) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(CA_BUNDLE, PemKeys.pem(bundle.toArray()));
    data.put(CA_KEY, signer.keyPem());
    data.put(SERVER_CERT, server.certificatePem());
    data.put(SERVER_KEY, server.keyPem());
    data.put(CLIENT_CERT, client.certificatePem());
    data.put(CLIENT_KEY, client.keyPem());
    return data;
  }

  /** Issued by the signer and not due for renewal. */
  private static boolean good(Issued cert, Issued signer, Instant now) {
    return signedBy(cert, signer) && remaining(cert.certificate(), now).compareTo(CERT_RENEWAL) >= 0;
  }

  /** Still valid and issued by a CA of the bundle: may stay while a new CA propagates. */
  private static boolean usable(Issued cert, List<X509Certificate> bundle, Instant now) {
    return cert.certificate().getNotAfter().toInstant().isAfter(now)
        && bundle.stream().anyMatch(ca -> Certificates.signedBy(cert.certificate(), ca));
  }

  private static boolean signedBy(Issued cert, Issued signer) {
    return Certificates.signedBy(cert.certificate(), signer.certificate());
  }

  private static Duration remaining(X509Certificate cert, Instant now) {
    return Duration.between(now, cert.getNotAfter().toInstant());
  }

  private static Instant issuedAt(X509Certificate cert) {
    return cert.getNotBefore().toInstant().plus(BACKDATE);
  }

  private static Set<String> names(X509Certificate cert) {
    Set<String> names = new HashSet<>();
    try {
      Collection<List<?>> sans = cert.getSubjectAlternativeNames();
      if (sans != null) {
        sans.forEach(san -> names.add(String.valueOf(san.get(1))));
      }
    } catch (CertificateParsingException e) {
      return Set.of();
    }
    return names;
  }

  /** The Secret's entries, parsed; empty when any is missing or unreadable. */
  private record State(List<X509Certificate> bundle, X509Certificate signer,
      PrivateKey signerKey, Issued server, Issued client) {

    static Optional<State> parse(Map<String, String> data) {
      try {
        List<X509Certificate> bundle = PemKeys.certificates(bytes(data, CA_BUNDLE), CA_BUNDLE);
        return Optional.of(new State(bundle, bundle.get(0),
            PemKeys.privateKey(bytes(data, CA_KEY), CA_KEY),
            issued(data, SERVER_CERT, SERVER_KEY), issued(data, CLIENT_CERT, CLIENT_KEY)));
      } catch (GeneralSecurityException | IllegalArgumentException e) {
        return Optional.empty();
      }
    }

    private static Issued issued(Map<String, String> data, String cert, String key)
        throws GeneralSecurityException {
      return new Issued(PemKeys.certificates(bytes(data, cert), cert).get(0),
          PemKeys.privateKey(bytes(data, key), key));
    }

    private static byte[] bytes(Map<String, String> data, String key) {
      String value = data.get(key);
      if (value == null) {
        throw new IllegalArgumentException(key + " is missing");
      }
      return value.getBytes(StandardCharsets.US_ASCII);
    }
  }
}
