package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * The member agent's JVM options, given to the member container as {@code JAVA_TOOL_OPTIONS}
 * (they come before the image's entry point options; an explicit {@code -Xmx} wins over its
 * {@code MaxRAMPercentage}). Every member pays its agent's memory all the time, so the heap is
 * sized to the work instead of the node: {@value #BASE_HEAP_MIB} MiB (full snapshots stream,
 * a restore holds at most 32 MiB of prepared transactions) plus twice the delta snapshot
 * memory limit (the buffered events and their serialised form). Serial GC, a small initial
 * heap that shrinks at once in the full collection the agent runs after a restore or a full
 * snapshot, two JIT threads on any node (C2 stays: SHA-256 is
 * an intrinsic only there, and C1 alone hashed 15 times slower), native memory the JIT freed
 * given back every 5 s, and one Netty arena. docs/monitoring.md explains the figures.
 */
public final class MemberJvm {

  public static final String ENV = "JAVA_TOOL_OPTIONS";
  static final long BASE_HEAP_MIB = 128;

  private MemberJvm() {
  }

  public static String options(Etcd etcd) {
    Quantity deltaLimit = Optional.ofNullable(etcd.getSpec().getBackup())
        .map(BackupSpec::getDeltaSnapshotMemoryLimit)
        .orElseGet(() -> new Quantity(EtcdDefaults.DELTA_SNAPSHOT_MEMORY_LIMIT));
    long deltaMib = Quantity.getAmountInBytes(deltaLimit)
        .divide(BigDecimal.valueOf(1024 * 1024), RoundingMode.CEILING).longValue();
    return "-XX:+UseSerialGC -Xss512k -Xms8m -Xmx" + (BASE_HEAP_MIB + 2 * deltaMib) + "m"
        + " -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:-ShrinkHeapInSteps"
        + " -XX:MaxMetaspaceSize=96m"
        + " -XX:ReservedCodeCacheSize=48m -XX:CICompilerCount=2 -XX:TrimNativeHeapInterval=5000"
        + " -Dio.netty.allocator.numDirectArenas=1 -Dio.netty.allocator.numHeapArenas=1";
  }

  static EnvVar env(Etcd etcd) {
    return new EnvVar(ENV, options(etcd), null);
  }
}
