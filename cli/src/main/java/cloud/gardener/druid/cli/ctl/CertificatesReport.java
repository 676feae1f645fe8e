package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.CertificateRotation;
import java.io.ByteArrayInputStream;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The text of {@code kubectl druid certificates}: every certificate an Etcd uses with subject,
 * issuer, SANs and expiry, then per endpoint the step of a CA rotation it is in. Pure: the
 * command reads the Secrets and pods.
 */
final class CertificatesReport {

  /** One Secret entry holding PEM certificates (never a key). */
  record Entry(String endpoint, String secret, String key, List<X509Certificate> certificates) {
  }

  /**
   * One endpoint's state: its CA bundle, the certificate its members serve, and how many of
   * its members started with the bundle the Secret holds now (null: not known).
   */
  record Endpoint(String name, List<X509Certificate> bundle, Optional<X509Certificate> served,
      Integer membersOnBundle, int members) {
  }

  private CertificatesReport() {
  }

  static List<X509Certificate> parse(byte[] pem) {
    try {
      return CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem)).stream()
          .map(X509Certificate.class::cast).toList();
    } catch (CertificateException e) {
      return List.of();
    }
  }

  static String render(List<Entry> entries, List<Endpoint> endpoints, Instant now) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"ENDPOINT", "SECRET", "KEY", "SUBJECT", "ISSUER", "SANS", "NOT AFTER",
        "EXPIRES IN"});
    for (Entry e : entries) {
      if (e.certificates().isEmpty()) {
        rows.add(new String[] {e.endpoint(), e.secret(), e.key(), "(missing or not PEM)", "", "",
            "", ""});
      }
      for (X509Certificate c : e.certificates()) {
        rows.add(new String[] {e.endpoint(), e.secret(), e.key(), name(c.getSubjectX500Principal()
            .getName()), name(c.getIssuerX500Principal().getName()), sans(c),
            c.getNotAfter().toInstant().toString(), expiresIn(c, now)});
      }
    }
    StringBuilder out = new StringBuilder(table(rows));
    if (!endpoints.isEmpty()) {
      out.append("\nRotation:\n");
      endpoints.forEach(p -> out.append("  ").append(p.name()).append(": ").append(step(p))
          .append('\n'));
    }
    return out.toString();
  }

  /** The operator's record of each endpoint it carries (status.certificates); "" without. */
  static String recorded(List<CertificateRotation> records) {
    if (records == null || records.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("\nOperator (status.certificates):\n");
    records.forEach(r -> out.append("  ").append(r.getTls()).append(": ").append(r.getPhase())
        .append(" since ").append(r.getLastTransitionTime()).append(": ").append(r.getMessage())
        .append("\n    trusted CAs: ").append(r.getTrustedCAs())
        .append("\n    served by: ").append(r.getServedBy()).append('\n'));
    return out.toString();
  }

  /** Where the endpoint is in the three steps of a CA rotation (docs/certificates.md). */
  static String step(Endpoint p) {
    String cas = p.bundle().size() == 1 ? "trusts 1 CA"
        : "trusts " + p.bundle().size() + " CAs";
    if (p.bundle().isEmpty()) {
      return "no CA bundle";
    }
    String rolled = p.membersOnBundle() == null ? ""
        : "; " + p.membersOnBundle() + " of " + p.members() + " members started with it";
    if (p.membersOnBundle() != null && p.membersOnBundle() < p.members()) {
      return cas + rolled + ": the members are rolled to the bundle";
    }
    if (p.served().isEmpty()) {
      return cas + rolled;
    }
    X509Certificate served = p.served().get();
    Optional<X509Certificate> issuer = p.bundle().stream()
        .filter(ca -> ca.getSubjectX500Principal().equals(served.getIssuerX500Principal()))
        .findFirst();
    if (issuer.isEmpty()) {
      return cas + rolled + ": MISMATCH, the certificate's issuer "
          + name(served.getIssuerX500Principal().getName()) + " is not in the bundle";
    }
    if (p.bundle().size() == 1) {
      return cas + rolled + ": no rotation in progress";
    }
    X509Certificate newest = p.bundle().stream()
        .max(Comparator.comparing(X509Certificate::getNotBefore)).orElseThrow();
    return newest.equals(issuer.get())
        ? cas + rolled + ": step 2 of 3 done, certificates of the new CA "
            + name(newest.getSubjectX500Principal().getName()) + " are served; next: drop the"
            + " old CA"
        : cas + rolled + ": step 1 of 3 done, every member trusts the new CA "
            + name(newest.getSubjectX500Principal().getName()) + "; next: serve its"
            + " certificates";
  }

  private static String expiresIn(X509Certificate c, Instant now) {
    Duration left = Duration.between(now, c.getNotAfter().toInstant());
    if (left.isNegative()) {
      return "EXPIRED";
    }
    return left.toDays() > 0 ? left.toDays() + "d" : left.toHours() > 0 ? left.toHours() + "h"
        : left.toMinutes() + "m";
  }

  private static String sans(X509Certificate c) {
    try {
      var names = c.getSubjectAlternativeNames();
      if (names == null || names.isEmpty()) {
        return "-";
      }
      return String.join(",", names.stream().map(n -> String.valueOf(n.get(1))).toList());
    } catch (CertificateParsingException e) {
      return "?";
    }
  }

  private static String name(String distinguished) {
    return distinguished.replace(" ", "");
  }

  private static String table(List<String[]> rows) {
    int[] widths = new int[rows.get(0).length];
    rows.forEach(r -> {
      for (int i = 0; i < r.length; i++) {
        widths[i] = Math.max(widths[i], r[i].length());
      }
    });
    StringBuilder out = new StringBuilder();
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        line.append(i == r.length - 1 ? r[i] : String.format("%-" + (widths[i] + 2) + "s", r[i]));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
