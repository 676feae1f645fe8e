package cloud.gardener.druid.operator.certificates;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.tls.Certificates.Issued;
import cloud.gardener.druid.api.tls.Certificates.Use;
import cloud.gardener.druid.api.v1alpha1.CertificateRotation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The exact steps the planner takes, in a world where a written bundle is rolled out by the
 * member rollout in one observation and a written certificate is served after one more (the
 * kubelet's delay).
 */
class RotationPlannerTest {

  private static final Instant NOW = Instant.now();
  private static final Issued CA1 = Certificates.ca("ca-1", NOW.minusSeconds(60),
      NOW.plusSeconds(3600));
  private static final Issued CA2 = Certificates.ca("ca-2", NOW.minusSeconds(60),
      NOW.plusSeconds(3600));
  private static final Issued CA3 = Certificates.ca("ca-3", NOW.minusSeconds(60),
      NOW.plusSeconds(3600));
  private static final String SOURCE = "Secrets p-ca (ca.crt) and p-server (tls.crt, tls.key)";

  /** The operator's view: what the user wants, what the members are given, and are served. */
  private static final class World {
    Optional<TlsMaterial> wanted;
    Optional<TlsMaterial> given = Optional.empty();
    boolean rolled = true;
    String served = "";
    Optional<CertificateRotation> recorded = Optional.empty();
    final List<String> steps = new ArrayList<>();

    World(TlsMaterial wanted) {
      this.wanted = Optional.of(wanted);
    }

    RotationPlanner.Inputs inputs() {
      return new RotationPlanner.Inputs(wanted, SOURCE, given, rolled, recorded);
    }

    /** One reconcile: the planner's step, then what the cluster does in reaction to it. */
    CertificateStep tick() {
      CertificateStep step = RotationPlanner.next(inputs(),
          pem -> Pems.certificates(pem).get(0).equals(Pems.certificates(served).get(0)));
      assertThat(RotationPlanner.next(inputs(), pem -> Pems.certificates(pem).get(0)
          .equals(Pems.certificates(served).get(0))))
          .as("the same inputs give the same step (an operator restart resumes)")
          .isEqualTo(step);
      steps.add(name(step));
      step.accept(new CertificateStep.Handler<Void>() {
        public Void create(CertificateStep.Create s) {
          World.this.give(s.material());
          return null;
        }

        public Void record(CertificateStep.Record s) {
          recorded = Optional.of(s.rotation());
          return null;
        }

        public Void give(CertificateStep.Give s) {
          World.this.give(s.material());
          return null;
        }

        public Void hold(CertificateStep.Hold s) {
          if (!rolled) {
            rolled = true; // the member rollout restarted every member
            steps.add("rolled");
          } else if (given.isPresent() && !given.get().certificate().equals(served)) {
            served = given.get().certificate(); // the kubelet wrote the Secret into the pods
            steps.add("served");
          }
          return null;
        }

        public Void settled(CertificateStep.Settled s) {
          return null;
        }
      });
      return step;
    }

    private void give(TlsMaterial material) {
      if (given.isEmpty()) {
        served = material.certificate();
      } else if (!Pems.fingerprints(material.caBundle())
          .equals(Pems.fingerprints(given.get().caBundle()))) {
        rolled = false;
      }
      given = Optional.of(material);
    }

    /** Ticks until settled (at most 30). */
    List<String> run() {
      for (int i = 0; i < 30; i++) {
        if (tick() instanceof CertificateStep.Settled) {
          return steps;
        }
      }
      throw new AssertionError("not settled: " + steps);
    }

    void settle() {
      run();
      steps.clear();
    }
  }

  private static String name(CertificateStep step) {
    return step.accept(new CertificateStep.Handler<String>() {
      public String create(CertificateStep.Create s) {
        return "create";
      }

      public String record(CertificateStep.Record s) {
        return "record " + s.rotation().getPhase();
      }

      public String give(CertificateStep.Give s) {
        return s.what().startsWith("step") ? "give " + s.what().substring(0, 11)
            : "give renewed certificate";
      }

      public String hold(CertificateStep.Hold s) {
        return "hold";
      }

      public String settled(CertificateStep.Settled s) {
        return "settled";
      }
    });
  }

  private static Issued leaf(Issued ca) {
    return Certificates.issue(ca, "peer", List.of("127.0.0.1"), Use.PEER, NOW.minusSeconds(60),
        NOW.plusSeconds(3600));
  }

  private static TlsMaterial material(Issued leaf, Issued... cas) {
    StringBuilder bundle = new StringBuilder();
    for (Issued ca : cas) {
      bundle.append(ca.certificatePem());
    }
    return new TlsMaterial(bundle.toString(), leaf.certificatePem(), leaf.keyPem());
  }

  @Test
  void aNewEtcdIsGivenACopyOfTheUsersSecretsAndRecordsWhatItTrusts() {
    World w = new World(material(leaf(CA1), CA1));
    assertThat(w.run()).containsExactly("create", "record Completed", "settled");
    assertThat(w.recorded.get().getTrustedCAs()).singleElement().asString()
        .startsWith("CN=ca-1 (sha256 ");
    assertThat(w.recorded.get().getServedBy()).startsWith("CN=ca-1 (sha256 ");
  }

  @Test
  void aNewCaIsCarriedThroughTheTrustOverlapInThreeSteps() {
    World w = new World(material(leaf(CA1), CA1));
    w.settle();
    TlsMaterial next = material(leaf(CA2), CA2);
    w.wanted = Optional.of(next);
    assertThat(w.run()).containsExactly(
        "record TrustingOldAndNew", "give step 1 of 3", "hold", "rolled",
        "record ServingNew", "give step 2 of 3", "hold", "served",
        "record TrustingNewOnly", "give step 3 of 3", "hold", "rolled",
        "record Completed", "settled");
    assertThat(w.given).contains(next);
    assertThat(w.recorded.get().getTrustedCAs()).singleElement().asString()
        .startsWith("CN=ca-2");
  }

  @Test
  void eachStepIsRecordedBeforeItIsTakenWithWhatTheMembersTrustAndServe() {
    World w = new World(material(leaf(CA1), CA1));
    w.settle();
    w.wanted = Optional.of(material(leaf(CA2), CA2));
    w.tick();
    CertificateRotation first = w.recorded.get();
    assertThat(first.getPhase()).isEqualTo(CertificateRotation.PHASE_TRUSTING_OLD_AND_NEW);
    assertThat(first.getTrustedCAs()).hasSize(2);
    assertThat(first.getTrustedCAs().get(0)).startsWith("CN=ca-1");
    assertThat(first.getTrustedCAs().get(1)).startsWith("CN=ca-2");
    assertThat(first.getServedBy()).startsWith("CN=ca-1");
    assertThat(Pems.fingerprints(w.given.get().caBundle())).hasSize(1); // not given yet
    w.tick();
    assertThat(Pems.fingerprints(w.given.get().caBundle())).hasSize(2);
    w.tick();
    w.tick();
    assertThat(w.recorded.get().getPhase()).isEqualTo(CertificateRotation.PHASE_SERVING_NEW);
    assertThat(w.recorded.get().getServedBy()).startsWith("CN=ca-2");
    assertThat(w.recorded.get().getTrustedCAs()).hasSize(2);
  }

  @Test
  void anOperatorRestartedBetweenARecordAndItsStepTakesTheStep() {
    World w = new World(material(leaf(CA1), CA1));
    w.settle();
    w.wanted = Optional.of(material(leaf(CA2), CA2));
    w.tick(); // recorded TrustingOldAndNew, then the operator stopped
    World restarted = new World(w.wanted.get());
    restarted.given = w.given;
    restarted.served = w.served;
    restarted.recorded = w.recorded;
    assertThat(restarted.run()).startsWith("give step 1 of 3", "hold", "rolled",
        "record ServingNew");
  }

  @Test
  void aNewCertificateOfTheSameCaIsGivenWithoutARecordOrARestart() {
    World w = new World(material(leaf(CA1), CA1));
    w.settle();
    w.wanted = Optional.of(material(leaf(CA1), CA1));
    assertThat(w.run()).containsExactly("give renewed certificate", "settled");
    assertThat(w.rolled).isTrue();
  }

  @Test
  void aCaBundleChangedBeforeItsCertificateWaitsForTheCertificateAfterStepOne() {
    Issued oldLeaf = leaf(CA1);
    World w = new World(material(oldLeaf, CA1));
    w.settle();
    w.wanted = Optional.of(material(oldLeaf, CA2)); // the CA Secret written first
    for (int i = 0; i < 6; i++) {
      w.tick();
    }
    assertThat(w.steps).containsExactly("record TrustingOldAndNew", "give step 1 of 3", "hold",
        "rolled", "hold", "hold", "hold");
    assertThat(RotationPlanner.next(w.inputs(), pem -> true).describe())
        .isEqualTo("waiting: a certificate issued by a CA of the bundle in the " + SOURCE);
    w.wanted = Optional.of(material(leaf(CA2), CA2)); // then the server Secret
    w.steps.clear();
    assertThat(w.run()).startsWith("record ServingNew", "give step 2 of 3");
  }

  @Test
  void aKeyThatIsNotTheCertificatesIsNotGiven() {
    World w = new World(material(leaf(CA1), CA1));
    w.settle();
    TlsMaterial other = material(leaf(CA1), CA1);
    w.wanted = Optional.of(new TlsMaterial(other.caBundle(), other.certificate(),
        leaf(CA1).keyPem()));
    assertThat(w.tick()).isInstanceOf(CertificateStep.Hold.class);
    assertThat(RotationPlanner.next(w.inputs(), pem -> true).describe()).isEqualTo(
        "waiting: a certificate and its key in the " + SOURCE + " (they do not belong together)");
  }

  @Test
  void aThirdCaDeclaredDuringARotationIsAddedToTheOverlap() {
    World w = new World(material(leaf(CA1), CA1));
    w.settle();
    w.wanted = Optional.of(material(leaf(CA2), CA2));
    w.tick();
    w.tick(); // members given ca-1 and ca-2
    w.steps.clear();
    w.wanted = Optional.of(material(leaf(CA3), CA3));
    assertThat(w.run()).containsExactly("hold", "rolled", "record TrustingOldAndNew",
        "give step 1 of 3", "hold", "rolled", "record ServingNew", "give step 2 of 3", "hold",
        "served", "record TrustingNewOnly", "give step 3 of 3", "hold", "rolled",
        "record Completed", "settled");
    assertThat(w.given.get().caBundle()).isEqualTo(CA3.certificatePem());
  }

  @Test
  void addingACaToTheBundleIsOneRollAndDroppingItAnother() {
    Issued leaf = leaf(CA1);
    World w = new World(material(leaf, CA1));
    w.settle();
    w.wanted = Optional.of(material(leaf, CA1, CA2));
    assertThat(w.run()).containsExactly("record TrustingOldAndNew", "give step 1 of 3", "hold",
        "rolled", "record Completed", "settled");
    w.steps.clear();
    w.wanted = Optional.of(material(leaf, CA1));
    assertThat(w.run()).containsExactly("record TrustingNewOnly", "give step 3 of 3", "hold",
        "rolled", "record Completed", "settled");
  }

  @Test
  void missingSecretsHoldTheFirstCopyAndNothingElse() {
    World w = new World(material(leaf(CA1), CA1));
    w.wanted = Optional.empty();
    assertThat(w.tick().describe()).isEqualTo("waiting: the " + SOURCE);
    w.wanted = Optional.of(material(leaf(CA1), CA1));
    w.run();
    w.wanted = Optional.empty();
    assertThat(w.tick()).isInstanceOf(CertificateStep.Settled.class);
  }

  @Test
  void theKeyIsNeverPartOfTheTextOfTheMaterial() {
    Issued leaf = leaf(CA1);
    TlsMaterial m = material(leaf, CA1);
    assertThat(m.toString()).doesNotContain(leaf.keyPem().lines().skip(1).findFirst()
        .orElseThrow()).contains("key=(hidden)");
  }
}
