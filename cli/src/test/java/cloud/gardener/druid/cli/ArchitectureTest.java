package cloud.gardener.druid.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The package rules of docs/architecture.md that hold for this module. */
class ArchitectureTest {

  private static final String CLI = "cloud.gardener.druid.cli";
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages(CLI);

  @Test
  void noPackageCycles() {
    slices().matching("cloud.gardener.druid.(**)").should().beFreeOfCycles().check(MAIN);
  }

  /**
   * The entry points (the root package) register ctl's commands; ctl and the entry points use
   * the shared pieces, which know no command.
   */
  @Test
  void theSharedPiecesKnowNoCommand() {
    noClasses().that().resideInAPackage(CLI + ".shared..").should().dependOnClassesThat()
        .resideInAnyPackage(CLI, CLI + ".ctl..").check(MAIN);
  }

  /** The product jar holds no test kit: the node simulator and JUnit are devtools' only. */
  @Test
  void theProductNeedsNoTestKit() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
        "cloud.gardener.druid.testenv..", "org.junit..").check(MAIN);
  }
}
