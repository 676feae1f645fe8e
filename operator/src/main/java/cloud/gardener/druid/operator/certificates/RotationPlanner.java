package cloud.gardener.druid.operator.certificates;

import static cloud.gardener.druid.api.v1alpha1.CertificateRotation.PHASE_COMPLETED;
import static cloud.gardener.druid.api.v1alpha1.CertificateRotation.PHASE_SERVING_NEW;
import static cloud.gardener.druid.api.v1alpha1.CertificateRotation.PHASE_TRUSTING_NEW_ONLY;
import static cloud.gardener.druid.api.v1alpha1.CertificateRotation.PHASE_TRUSTING_OLD_AND_NEW;
import static cloud.gardener.druid.api.v1alpha1.CertificateRotation.TLS_PEER;

import cloud.gardener.druid.api.v1alpha1.CertificateRotation;
import cloud.gardener.druid.operator.certificates.CertificateStep.Create;
import cloud.gardener.druid.operator.certificates.CertificateStep.Give;
import cloud.gardener.druid.operator.certificates.CertificateStep.Hold;
import cloud.gardener.druid.operator.certificates.CertificateStep.Record;
import cloud.gardener.druid.operator.certificates.CertificateStep.Settled;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Decides the next step that brings the peer certificates the members are given (the
 * operator's copy) to those the spec names (the user's Secrets). A changed CA bundle is
 * carried through the trust overlap: (1) the old and the new CAs (a restart of each member),
 * (2) the certificate of the new CA (etcd reads it at its next handshake: no restart), once
 * every member serves it (3) the new CAs alone (a restart of each member). A new certificate
 * under the same CAs is given at once.
 *
 * <p>Pure, and derived afresh each time from what is given and what is wanted: an operator
 * restarted at any point takes the same step again. Each step that writes is recorded in
 * status first ({@link Record}); one not recorded yet is recorded, then taken.
 */
public final class RotationPlanner {

  static final String STEP_1 = "step 1 of 3: the members restart one at a time to trust the old"
      + " and the new CA; they serve the certificate of the old CA";
  static final String STEP_2 = "step 2 of 3: the members serve the certificate of the new CA"
      + " (no restart); clients trust both CAs";
  static final String STEP_3 = "step 3 of 3: the members restart one at a time to trust the"
      + " new CA alone";
  static final String COMPLETED = "the members trust trustedCAs and serve a certificate of"
      + " servedBy";

  private RotationPlanner() {
  }

  /**
   * What the planner decides from.
   *
   * @param wanted the bundle, certificate and key of the Secrets the spec names; empty while
   *     one of them is missing
   * @param source those Secrets, for messages ("Secrets a (ca.crt) and b")
   * @param given what the operator's copy holds; empty before it exists
   * @param rolled whether every member runs with the bundle {@code given} holds (the member
   *     rollout is done)
   * @param recorded the step recorded in status
   */
  public record Inputs(Optional<TlsMaterial> wanted, String source,
      Optional<TlsMaterial> given, boolean rolled, Optional<CertificateRotation> recorded) {
  }

  /** {@code allServe}: whether every member serves the (first) certificate of the PEM. */
  public static CertificateStep next(Inputs in, Predicate<String> allServe) {
    if (in.given().isEmpty()) {
      return in.wanted().<CertificateStep>map(Create::new)
          .orElseGet(() -> new Hold("the " + in.source()));
    }
    if (!in.rolled()) {
      return new Hold("the members restarting to trust the bundle they are given");
    }
    TlsMaterial given = in.given().get();
    if (in.wanted().isEmpty()) {
      return new Settled(); // the user's Secrets are gone: the members keep what they have
    }
    TlsMaterial wanted = in.wanted().get();
    if (Pems.fingerprints(wanted.caBundle()).isEmpty()) {
      return new Hold("a CA certificate in the " + in.source());
    }
    if (Pems.fingerprints(wanted.caBundle()).equals(Pems.fingerprints(given.caBundle()))) {
      if (wanted.sameLeaf(given)) {
        return recordOr(in, rotation(PHASE_COMPLETED, given, COMPLETED), new Settled());
      }
      return leafProblem(wanted, in.source()).<CertificateStep>map(Hold::new).orElseGet(() ->
          new Give(given.withLeafOf(wanted), "giving the members a new certificate of the same"
              + " CA (no restart)"));
    }
    String union = Pems.union(given.caBundle(), wanted.caBundle());
    if (!Pems.fingerprints(union).equals(Pems.fingerprints(given.caBundle()))) {
      TlsMaterial next = given.withBundle(union);
      return recordOr(in, rotation(PHASE_TRUSTING_OLD_AND_NEW, next, STEP_1),
          new Give(next, STEP_1));
    }
    // the new CA alone only once the members serve a certificate it issued
    Optional<String> problem = leafProblem(wanted, in.source());
    if (problem.isPresent()) {
      return new Hold(problem.get());
    }
    if (!wanted.sameLeaf(given)) {
      TlsMaterial next = given.withLeafOf(wanted);
      return recordOr(in, rotation(PHASE_SERVING_NEW, next, STEP_2), new Give(next, STEP_2));
    }
    if (!allServe.test(wanted.certificate())) {
      return new Hold("every member serving the certificate of the new CA (the kubelet writes"
          + " a changed Secret into the pods within about a minute)");
    }
    TlsMaterial next = given.withBundle(wanted.caBundle());
    return recordOr(in, rotation(PHASE_TRUSTING_NEW_ONLY, next, STEP_3), new Give(next, STEP_3));
  }

  /** Why the certificate and key wanted cannot be given yet; empty when they can. */
  private static Optional<String> leafProblem(TlsMaterial wanted, String source) {
    if (!Pems.keyMatches(wanted.certificate(), wanted.key())) {
      return Optional.of("a certificate and its key in the " + source
          + " (they do not belong together)");
    }
    if (Pems.issuer(wanted.certificate(), wanted.caBundle()).isEmpty()) {
      return Optional.of("a certificate issued by a CA of the bundle in the " + source);
    }
    return Optional.empty();
  }

  private static CertificateStep recordOr(Inputs in, CertificateRotation rotation,
      CertificateStep step) {
    return in.recorded().filter(rotation::sameStep).isPresent() ? step : new Record(rotation);
  }

  /** The record of {@code phase} for the members being given {@code material}. */
  static CertificateRotation rotation(String phase, TlsMaterial material, String message) {
    List<String> trusted = Pems.describeAll(material.caBundle());
    String servedBy = Pems.issuer(material.certificate(), material.caBundle())
        .map(Pems::describe)
        .orElseGet(() -> Pems.certificates(material.certificate()).stream().findFirst()
            .map(X509Certificate::getIssuerX500Principal)
            .map(p -> p.getName() + " (not in the bundle)").orElse("unknown"));
    return new CertificateRotation(TLS_PEER, phase, trusted, servedBy, message, null);
  }
}
