package cloud.gardener.druid.api.member;

/**
 * The member agent's JVM options (the operator gives them to the member container as
 * {@code JAVA_TOOL_OPTIONS}; the agent's footprint benchmark runs the agent with them). Every
 * member pays its agent's memory all the time, so the heap is sized to the work instead of the
 * node: {@value #BASE_HEAP_MIB} MiB (full snapshots stream, a restore holds at most 32 MiB of
 * prepared transactions) plus twice the delta snapshot memory limit (the buffered events and
 * their serialised form). Serial GC, a small initial heap that shrinks at once, to at most 15 %
 * free (30 % kept an idle agent's heap 3 MiB larger), in the full
 * collections the agent runs after a restore, a full snapshot, or when the old generation grew
 * (agent/util/HeapCeiling: Java 25's Serial GC grows it where JDK 17's collected), a young
 * generation of a
 * seventh of the heap (an idle agent allocates little; the default third kept 5 MiB more
 * resident for nothing), two JIT threads on any node
 * (C2 stays: SHA-256 is an intrinsic only there, and C1 alone hashed 15 times slower), native
 * memory the JIT freed given back every 5 s, and one Netty arena of 512 KiB chunks (gRPC asks
 * for 2 MiB ones; 2-4 MiB less at rest, snapshots no slower). docs/monitoring.md explains the
 * figures, docs/benchmarks.md measures them.
 */
public final class MemberJvmOptions {

  public static final long BASE_HEAP_MIB = 128;

  private MemberJvmOptions() {
  }

  /** The options for a member whose delta snapshot memory limit is {@code deltaLimitMib}. */
  public static String forDeltaLimitMib(long deltaLimitMib) {
    if (deltaLimitMib < 0) {
      throw new IllegalArgumentException("deltaLimitMib must not be negative: " + deltaLimitMib);
    }
    return "-XX:+UseSerialGC -Xss512k -Xms8m -Xmx" + (BASE_HEAP_MIB + 2 * deltaLimitMib) + "m"
        + " -XX:NewRatio=6 -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=15"
        + " -XX:-ShrinkHeapInSteps"
        + " -XX:MaxMetaspaceSize=96m"
        + " -XX:ReservedCodeCacheSize=48m -XX:CICompilerCount=2 -XX:TrimNativeHeapInterval=5000"
        + " -Dio.netty.allocator.numDirectArenas=1 -Dio.netty.allocator.numHeapArenas=1"
        + " -Dio.netty.allocator.maxOrder=6";
  }
}
