package cloud.gardener.druid.operator.it;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.stream.Stream;

/** A member's etcd database on its volume, and its role, for the corruption ITs. */
final class MemberDatabases {

  private MemberDatabases() {
  }

  /** The bbolt file of {@code member}'s etcd on the host path behind its volume. */
  static Path database(KubernetesClient client, String etcd, String member) throws Exception {
    PersistentVolumeClaim pvc = client.persistentVolumeClaims().withName(etcd + "-" + member)
        .get();
    PersistentVolume pv = client.persistentVolumes().withName(pvc.getSpec().getVolumeName())
        .get();
    try (Stream<Path> files = Files.walk(Path.of(pv.getSpec().getHostPath().getPath()))) {
      return files.filter(f -> f.getFileName().toString().equals("db")
          && f.getParent().getFileName().toString().equals("snap")).findFirst().orElseThrow();
    }
  }

  /**
   * Rewrites every copy of {@code from} in the file with {@code to} (same length) where it
   * lies, without truncating: a running etcd maps the file, and a truncation would take the
   * pages from under it. How many copies were changed.
   */
  static int replaceInPlace(Path file, String from, String to) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    byte[] a = from.getBytes(StandardCharsets.UTF_8);
    byte[] b = to.getBytes(StandardCharsets.UTF_8);
    int count = 0;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      for (int i = 0; i + a.length <= bytes.length; i++) {
        if (Arrays.equals(bytes, i, i + a.length, a, 0, a.length)) {
          channel.write(ByteBuffer.wrap(b), i);
          count++;
        }
      }
    }
    return count;
  }

  /** Whether {@code pod}'s member leads, as its lease says. */
  static boolean isLeader(KubernetesClient client, Pod pod) {
    var lease = client.leases().withName(pod.getMetadata().getName()).get();
    return lease != null && lease.getSpec().getHolderIdentity() != null
        && lease.getSpec().getHolderIdentity().endsWith(":Leader");
  }

  static String endpointOf(Pod pod) {
    return "http://" + pod.getStatus().getPodIP() + ":2379";
  }
}
