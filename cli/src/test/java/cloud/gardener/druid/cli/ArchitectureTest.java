package cloud.gardener.druid.cli;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.freeze.FreezingArchRule;
import org.junit.jupiter.api.Test;

/**
 * The package rules of docs/architecture.md that hold for this module. The package cycles
 * known when the rule came (cli and cli.bench) are frozen in
 * src/test/resources/frozen-package-cycles until they are broken; any other cycle fails.
 */
class ArchitectureTest {

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("cloud.gardener.druid.cli");

  @Test
  void noPackageCyclesButTheKnownOnes() {
    FreezingArchRule.freeze(slices().matching("cloud.gardener.druid.(**)").should()
        .beFreeOfCycles()).associateViolationLinesVia(ArchitectureTest::sameCycle).check(MAIN);
  }

  /**
   * A frozen cycle is the same cycle when it runs through the same packages: the dependencies
   * listed under it change with every edit of its classes.
   */
  private static boolean sameCycle(String frozen, String found) {
    return packagesOf(frozen).equals(packagesOf(found));
  }

  private static String packagesOf(String cycle) {
    int dependencies = cycle.indexOf("1. Dependencies of");
    return (dependencies < 0 ? cycle : cycle.substring(0, dependencies)).replaceAll("\\s+", " ")
        .strip();
  }
}
