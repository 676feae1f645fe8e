package cloud.gardener.druid.agent.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EtcdSnapshotHashTest {

  private static byte[] etcdSnapshot(int size) throws Exception {
    byte[] db = new byte[size];
    new Random(size).nextBytes(db);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(db);
    out.write(MessageDigest.getInstance("SHA-256").digest(db));
    return out.toByteArray();
  }

  @Test
  void acceptsASnapshotWrittenInAnyChunkSizesAndPassesEveryByte() throws Exception {
    byte[] snapshot = etcdSnapshot(100_000);
    for (int chunk : new int[] {1, 7, 31, 32, 33, 4096, 200_000}) {
      ByteArrayOutputStream copy = new ByteArrayOutputStream();
      EtcdSnapshotHash hash = new EtcdSnapshotHash(copy);
      for (int off = 0; off < snapshot.length; off += chunk) {
        hash.write(snapshot, off, Math.min(chunk, snapshot.length - off));
      }
      hash.verify("snapshot");
      assertThat(copy.toByteArray()).isEqualTo(snapshot);
    }
  }

  @Test
  void rejectsACorruptOrTruncatedSnapshot() throws Exception {
    byte[] snapshot = etcdSnapshot(10_000);
    snapshot[5000] ^= 1;
    EtcdSnapshotHash corrupt = new EtcdSnapshotHash(new ByteArrayOutputStream());
    corrupt.write(snapshot, 0, snapshot.length);
    assertThatThrownBy(() -> corrupt.verify("Full-1"))
        .hasMessageStartingWith("Full-1 failed its SHA-256 check");

    EtcdSnapshotHash truncated = new EtcdSnapshotHash(new ByteArrayOutputStream());
    truncated.write(snapshot, 0, 20);
    assertThatThrownBy(() -> truncated.verify("Full-1")).hasMessageContaining("truncated");
  }
}
