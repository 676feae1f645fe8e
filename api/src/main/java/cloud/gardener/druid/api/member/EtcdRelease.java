package cloud.gardener.druid.api.member;

import java.util.Arrays;
import java.util.Optional;

/**
 * The etcd minors the member image ships, each at one patch version (the one
 * {@code testenv/etcd/build.sh} builds and {@code images/build.sh} copies to
 * {@code /opt/etcd/etcd-v<version>/}). {@code spec.etcd.version} names a minor; the patch is
 * the operator's, so an operator release that ships a new patch rolls its members like any
 * other change of what they run. docs/etcd-versions.md.
 */
public enum EtcdRelease {
  V3_5("3.5", "3.5.36"),
  V3_6("3.6", "3.6.16"),
  V3_7("3.7", "3.7.4");

  /** Today's etcd, for an Etcd that does not name one. */
  public static final EtcdRelease DEFAULT = V3_6;

  /** The CRD's enum of {@code spec.etcd.version}. */
  public static final String MINORS = "3.5, 3.6, 3.7";

  private final String minor;
  private final String version;

  EtcdRelease(String minor, String version) {
    this.minor = minor;
    this.version = version;
  }

  /** "3.6". */
  public String minor() {
    return minor;
  }

  /** "3.6.16": the patch the image ships. */
  public String version() {
    return version;
  }

  /** The minor number: 6 for 3.6. */
  public int minorNumber() {
    return Integer.parseInt(minor.substring(minor.indexOf('.') + 1));
  }

  /** The release of a minor ("3.6") or of any version of it ("3.6.0", "3.6.16", "v3.6.2"). */
  public static Optional<EtcdRelease> of(String version) {
    if (version == null) {
      return Optional.empty();
    }
    String v = version.startsWith("v") ? version.substring(1) : version;
    return Arrays.stream(values())
        .filter(r -> v.equals(r.minor) || v.startsWith(r.minor + "."))
        .findFirst();
  }

  /** The minor named by a spec; absent means {@link #DEFAULT}. */
  public static EtcdRelease ofSpec(String minor) {
    return minor == null ? DEFAULT : of(minor).orElseThrow(() -> new IllegalArgumentException(
        "etcd version " + minor + " is not one of " + MINORS));
  }

  /** Whether moving between the two changes the minor by at most one (etcd's rule). */
  public boolean adjacentTo(EtcdRelease other) {
    return Math.abs(minorNumber() - other.minorNumber()) <= 1;
  }
}
