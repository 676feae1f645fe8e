package cloud.gardener.druid.operator;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The package rules of docs/architecture.md that hold for this module. */
class ArchitectureTest {

  private static final String OPERATOR = "cloud.gardener.druid.operator";
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages(OPERATOR);

  @Test
  void noPackageCycles() {
    slices().matching("cloud.gardener.druid.(**)").should().beFreeOfCycles().check(MAIN);
  }

  /** The planners decide from an observation; only the executors talk to the API server. */
  @Test
  void plannersArePure() {
    noClasses().that().resideInAnyPackage(OPERATOR + ".rollout..", OPERATOR + ".volume..",
            OPERATOR + ".action..", OPERATOR + ".capacity..", OPERATOR + ".certificates..")
        .should().dependOnClassesThat().resideInAnyPackage("io.fabric8.kubernetes.client..",
            OPERATOR + ".etcd..", OPERATOR + ".task..", OPERATOR + ".status..")
        .check(MAIN);
  }

  /** An observation holds what was read; what to do about it is decided above it. */
  @Test
  void theObservationKnowsNoPlanner() {
    noClasses().that().resideInAPackage(OPERATOR + ".observe..")
        .should().dependOnClassesThat().resideInAnyPackage(OPERATOR + ".rollout..",
            OPERATOR + ".volume..", OPERATOR + ".action..", OPERATOR + ".capacity..",
            OPERATOR + ".status..",
            OPERATOR + ".etcd..", OPERATOR + ".task..")
        .check(MAIN);
  }

  /** The rollout contract's checker serves the ITs and {@code druid bench chaos} only. */
  @Test
  void noOperatorCodeDependsOnTheContractChecker() {
    noClasses().that().resideOutsideOfPackage(OPERATOR + ".contract..")
        .should().dependOnClassesThat().resideInAPackage(OPERATOR + ".contract..")
        .check(MAIN);
  }
}
