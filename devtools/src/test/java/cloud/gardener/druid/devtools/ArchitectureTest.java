package cloud.gardener.druid.devtools;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The package rules of docs/architecture.md that hold for this module. */
class ArchitectureTest {

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("cloud.gardener.druid.devtools", "cloud.gardener.druid.cli");

  @Test
  void noPackageCycles() {
    slices().matching("cloud.gardener.druid.(**)").should().beFreeOfCycles().check(MAIN);
  }
}
