package cloud.gardener.druid.agent;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The package rules of docs/architecture.md that hold for the agent. */
class ArchitectureTest {

  private static final String ROOT = "cloud.gardener.druid.agent";
  private static final String HTTP = ROOT + ".http";
  private static final String[] LEAVES = {ROOT + ".util", ROOT + ".tls"};
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages(ROOT);

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("cloud.gardener.druid.(**)").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void onlyTheRootPackageWiresTheAgentTogether() {
    noClasses().that().resideOutsideOfPackage(ROOT).should().dependOnClassesThat()
        .resideInAPackage(ROOT).check(MAIN);
  }

  @Test
  void onlyTheRootPackageUsesTheHttpApi() {
    noClasses().that().resideOutsideOfPackages(ROOT, HTTP).should().dependOnClassesThat()
        .resideInAPackage(HTTP).check(MAIN);
  }

  @Test
  void utilitiesAndTlsDependOnNoOtherAgentPackage() {
    noClasses().that().resideInAnyPackage(LEAVES).should().dependOnClassesThat(
        resideInAPackage(ROOT + "..").and(resideOutsideOfPackages(LEAVES))).check(MAIN);
  }
}
