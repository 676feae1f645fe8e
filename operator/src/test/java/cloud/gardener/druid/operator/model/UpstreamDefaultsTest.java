package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.BboltFreelistType;
import cloud.gardener.druid.api.v1alpha1.CompressionSpec;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.GarbageCollectionPolicy;
import cloud.gardener.druid.operator.testing.Etcds;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins the defaults of absent fields to upstream etcd-druid's (main, 5b90b4a): what the member
 * agent and etcd run with when the spec says nothing.
 */
class UpstreamDefaultsTest {

  private static List<String> args(Etcd etcd) {
    return AgentArgs.build(etcd);
  }

  @Test
  void absentFieldsGetUpstreamsCurrentDefaults() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    assertThat(args(etcd)).contains(
        "--snapshot-count=10000",                 // upstream #1166 (was 75000)
        "--backend-bbolt-freelist-type=array",    // upstream #1374 (etcd's own: map)
        "--compress-snapshots=true",              // upstream #1202 (was false)
        "--compression-policy=gzip",
        "--garbage-collection-policy=LimitBased", // upstream's defaultGbcPolicy
        "--max-backups=7",
        "--quota-backend-bytes=" + (8L << 30),
        "--full-snapshot-schedule=0 */1 * * *",
        "--delta-snapshot-period=20s",
        "--garbage-collection-period=1m",
        "--defragmentation-schedule=0 0 */3 * *");
    assertThat(EtcdConfigMapBuilder.config(etcd))
        .containsEntry("snapshot-count", 10_000L)
        .containsEntry("backend-bbolt-freelist-type", "array")
        .containsEntry("auto-compaction-mode", "periodic")
        .containsEntry("auto-compaction-retention", "30m")
        .containsEntry("metrics", "basic");
  }

  @Test
  void theSpecsValuesWinOverTheDefaults() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    etcd.getSpec().getEtcd().setSnapshotCount(75_000L);
    etcd.getSpec().getEtcd().setBackendBboltFreelistType(BboltFreelistType.MAP);
    etcd.getSpec().getBackup().setGarbageCollectionPolicy(GarbageCollectionPolicy.Exponential);
    CompressionSpec compression = new CompressionSpec();
    compression.setPolicy(CompressionSpec.Policy.ZLIB);
    etcd.getSpec().getBackup().setCompression(compression);
    assertThat(args(etcd)).contains("--snapshot-count=75000",
        "--backend-bbolt-freelist-type=map", "--garbage-collection-policy=Exponential",
        "--compress-snapshots=true", "--compression-policy=zlib");
    assertThat(EtcdConfigMapBuilder.config(etcd))
        .containsEntry("snapshot-count", 75_000L)
        .containsEntry("backend-bbolt-freelist-type", "map");
  }

  @Test
  void compressionIsOffOnlyWhenTheSpecTurnsItOff() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    CompressionSpec off = new CompressionSpec();
    off.setEnabled(false);
    etcd.getSpec().getBackup().setCompression(off);
    assertThat(args(etcd)).contains("--compress-snapshots=false")
        .noneMatch(a -> a.startsWith("--compression-policy="));
    off.setEnabled(null);
    assertThat(args(etcd)).contains("--compress-snapshots=true", "--compression-policy=gzip");
  }
}
