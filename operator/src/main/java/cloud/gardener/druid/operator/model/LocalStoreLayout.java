package cloud.gardener.druid.operator.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How {@code Local} backup stores are laid out below the operator's store root (see
 * {@link LocalStore#hostPath}).
 */
public enum LocalStoreLayout {
  /** {@code <root>/<namespace>/<container>}: a member sees its own namespace's stores only. */
  PER_NAMESPACE("per-namespace"),
  /**
   * {@code <root>/<container>}, upstream's layout: Etcds of every namespace with the same
   * container share one host directory.
   */
  SHARED("shared");

  private final String flag;

  LocalStoreLayout(String flag) {
    this.flag = flag;
  }

  /** The value of {@code --local-store-layout} and of the chart's {@code localStoreLayout}. */
  public String flag() {
    return flag;
  }

  public static LocalStoreLayout of(String flag) {
    return Arrays.stream(values()).filter(l -> l.flag.equals(flag)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("local store layout: '" + flag
            + "' is none of " + Arrays.stream(values()).map(LocalStoreLayout::flag)
                .collect(Collectors.joining(", "))));
  }

  @Override
  public String toString() {
    return flag;
  }
}
