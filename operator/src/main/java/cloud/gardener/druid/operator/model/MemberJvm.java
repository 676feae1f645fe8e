package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.member.MemberJvmOptions;
import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * The member agent's JVM options ({@link MemberJvmOptions}, sized to the Etcd's delta snapshot
 * memory limit), given to the member container as {@code JAVA_TOOL_OPTIONS} (they come before
 * the image's entry point options; an explicit {@code -Xmx} wins over its
 * {@code MaxRAMPercentage}).
 */
public final class MemberJvm {

  public static final String ENV = "JAVA_TOOL_OPTIONS";

  private MemberJvm() {
  }

  public static String options(Etcd etcd) {
    Quantity deltaLimit = Optional.ofNullable(etcd.getSpec().getBackup())
        .map(BackupSpec::getDeltaSnapshotMemoryLimit)
        .orElseGet(() -> new Quantity(EtcdDefaults.DELTA_SNAPSHOT_MEMORY_LIMIT));
    long deltaMib = Quantity.getAmountInBytes(deltaLimit)
        .divide(BigDecimal.valueOf(1024 * 1024), RoundingMode.CEILING).longValue();
    return MemberJvmOptions.forDeltaLimitMib(deltaMib);
  }

  static EnvVar env(Etcd etcd) {
    return new EnvVar(ENV, options(etcd), null);
  }
}
