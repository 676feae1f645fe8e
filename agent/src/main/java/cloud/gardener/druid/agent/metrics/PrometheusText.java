package cloud.gardener.druid.agent.metrics;

import java.math.BigDecimal;

/** Values and escapes of the Prometheus text format, spelt as Go's client spells them. */
final class PrometheusText {

  private PrometheusText() {
  }

  /**
   * Go's {@code strconv.FormatFloat(v, 'g', -1, 64)}: the shortest digits, plain notation for
   * exponents from -4 to 5, otherwise {@code d.ddde+XX}: {@code 1}, {@code 0.005},
   * {@code 2.5}, {@code 1.764e+09}. Bucket bounds ({@code le}) are label values, so the same
   * spelling as etcd-backup-restore's keeps the series identical across a mixed fleet.
   */
  static String formatValue(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    BigDecimal d = new BigDecimal(Double.toString(v)).stripTrailingZeros();
    int exponent = d.precision() - d.scale() - 1;
    if (exponent >= -4 && exponent < 6) {
      return d.toPlainString();
    }
    String digits = d.unscaledValue().abs().toString();
    StringBuilder out = new StringBuilder();
    if (d.signum() < 0) {
      out.append('-');
    }
    out.append(digits.charAt(0));
    if (digits.length() > 1) {
      out.append('.').append(digits, 1, digits.length());
    }
    out.append('e').append(exponent < 0 ? '-' : '+');
    int abs = Math.abs(exponent);
    out.append(abs < 10 ? "0" : "").append(abs);
    return out.toString();
  }

  static String escapeHelp(String help) {
    return help.replace("\\", "\\\\").replace("\n", "\\n");
  }

  static String escapeLabelValue(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
