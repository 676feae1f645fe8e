package cloud.gardener.druid.api.types;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Pattern;

/** Validation and arithmetic helpers for Kubernetes quantities ("16Gi", "500M", "1.5"). */
public final class Quantities {

  /** Kubernetes' own quantity grammar, used as the CRD schema pattern. */
  public static final String PATTERN =
      "^[+-]?(([0-9]+([.][0-9]*)?)|([.][0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE][+-]?(([0-9]+([.][0-9]*)?)|([.][0-9]+))))?$";

  /**
   * The CEL rule for quantity fields. The CRD generator gives {@code Quantity} an int-or-string
   * schema and drops {@code pattern} there, so the grammar is checked by CEL instead.
   */
  public static final String RULE = "type(self) == int || string(self).matches('" + PATTERN + "')";

  public static final String MESSAGE = "must be a quantity such as 16Gi or 500M";

  private static final Pattern QUANTITY = Pattern.compile(PATTERN);

  private Quantities() {
  }

  public static Optional<String> validate(Quantity q) {
    if (q == null) {
      return Optional.empty();
    }
    String text = q.getFormat() == null || q.getFormat().isEmpty()
        ? q.getAmount() : q.getAmount() + q.getFormat();
    if (text == null || !QUANTITY.matcher(text).matches()) {
      return Optional.of("'" + text + "' is not a quantity such as 16Gi or 500M");
    }
    return Optional.empty();
  }

  /** The quantity in bytes (or base units), exact. */
  public static BigDecimal bytes(Quantity q) {
    return q.getNumericalAmount();
  }

  public static long bytesLong(Quantity q) {
    return q.getNumericalAmount().setScale(0, java.math.RoundingMode.CEILING).longValueExact();
  }
}
