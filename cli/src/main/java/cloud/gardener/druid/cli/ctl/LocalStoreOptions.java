package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.cli.shared.LocalStoreLayoutConverter;
import cloud.gardener.druid.operator.model.LocalStoreLayout;
import cloud.gardener.druid.operator.model.OperatorSettings;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where a Local store is on this machine, as the operator finds it: its own
 * {@code --local-store-root} and {@code --local-store-layout} ({@code backups}, {@code history}).
 */
final class LocalStoreOptions {

  @Option(names = "--local-store-root", paramLabel = "DIR",
      defaultValue = OperatorSettings.DEFAULT_LOCAL_STORE_ROOT,
      description = "The operator's --local-store-root, for Local stores (default:"
          + " ${DEFAULT-VALUE}).")
  Path root;

  @Option(names = "--local-store-layout", paramLabel = "per-namespace|shared",
      defaultValue = "per-namespace", converter = LocalStoreLayoutConverter.class,
      description = "The operator's --local-store-layout, for Local stores (default:"
          + " ${DEFAULT-VALUE}).")
  LocalStoreLayout layout;
}
