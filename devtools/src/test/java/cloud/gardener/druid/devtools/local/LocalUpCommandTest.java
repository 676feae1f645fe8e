package cloud.gardener.druid.devtools.local;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.devtools.DruidDev;
import org.junit.jupiter.api.Test;

class LocalUpCommandTest {

  /** {@code local up --detach} re-runs itself with the main class that has {@code local}. */
  @Test
  void theDetachedRunUsesTheDeveloperMain() {
    LocalCommand local = DruidDev.commandLine().getSubcommands().get("local").getCommand();
    assertThat(local.main()).isEqualTo(DruidDev.class);
  }
}
