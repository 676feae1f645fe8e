package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.condition;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.api.v1alpha1.VerifyBackupsConfig;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restore drills through the operator on S3 (s3proxy), issue 34's first done-when: clean
 * backups give {@code BackupVerified=True}; one byte flipped in a delta object turns it
 * {@code False} within one drill naming that object; a deleted delta in the middle of the
 * chain is named; another Etcd's identity in the store is refused, not restored.
 */
@WithOperator
class S3BackupVerificationIT {

  private static final String BUCKET = "drill-backups";
  private static final String ACCESS = "drill-access";
  private static final String SECRET = "drill-secret-key";
  private static final String ETCD = "s3drill";

  @TempDir
  Path work;

  @Test
  void drillsOnS3NameTheFlippedTheMissingAndTheForeign(KubernetesClient client,
      TestNamespace ns) throws Exception {
    Properties properties = new Properties();
    Path blobsDir = Files.createDirectories(work.resolve("blobs"));
    properties.setProperty("jclouds.filesystem.basedir", blobsDir.toString());
    try (BlobStoreContext blobs = ContextBuilder.newBuilder("filesystem").overrides(properties)
        .build(BlobStoreContext.class)) {
      S3Proxy s3 = S3Proxy.builder().blobStore(blobs.getBlobStore())
          .endpoint(URI.create("http://127.0.0.1:0"))
          .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS, SECRET).build();
      s3.start();
      try {
        await().atMost(Duration.ofSeconds(30)).until(() -> "STARTED".equals(s3.getState()));
        blobs.getBlobStore().createContainerInLocation(null, BUCKET);
        String prefix = ns.name() + "/" + ETCD;
        Etcd etcd = createEtcd(client, ns, "http://127.0.0.1:" + s3.getPort(), prefix);
        Path store = blobsDir.resolve(BUCKET).resolve(prefix).resolve("v2");
        List<Path> deltas = backUp(client, etcd, store);

        verify(client, "verify-clean", "Succeeded", ConditionTypes.TRUE, "Verified", "");

        Path flipped = deltas.get(1);
        byte[] original = Files.readAllBytes(flipped);
        byte[] bytes = original.clone();
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(flipped, bytes);
        // a flip inside the compressed stream fails its decoding before the checksum
        verify(client, "verify-flipped", "Failed", ConditionTypes.FALSE,
            java.util.Set.of("ChecksumFailed", "DecodeFailed"), flipped.getFileName().toString());
        Files.write(flipped, original);

        Files.move(deltas.get(1), work.resolve("kept-delta"));
        verify(client, "verify-missing", "Failed", ConditionTypes.FALSE, "MissingDelta",
            deltas.get(2).getFileName().toString());
        Files.move(work.resolve("kept-delta"), deltas.get(1));

        Files.write(store.resolve(StoreIdentity.OBJECT_NAME),
            new StoreIdentity(ns.name(), "etcd-other").toJson());
        verify(client, "verify-foreign", "Failed", ConditionTypes.FALSE, "ForeignStore",
            StoreIdentity.OBJECT_NAME);
      } finally {
        s3.stop();
      }
    }
  }

  private static Etcd createEtcd(KubernetesClient client, TestNamespace ns, String endpoint,
      String prefix) throws Exception {
    client.resource(new SecretBuilder().withNewMetadata().withName("s3-store").endMetadata()
        .addToStringData("accessKeyID", ACCESS).addToStringData("secretAccessKey", SECRET)
        .addToStringData("region", "eu-west-1").build()).create();
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName(ETCD);
    StoreSpec store = CopyBackupsTaskIT.store(StorageProvider.S3, BUCKET, prefix);
    store.setEndpointOverride(endpoint);
    store.setSecretRef(new SecretReference("s3-store", null));
    etcd.getSpec().getBackup().setStore(store);
    etcd.getSpec().getBackup().setDeltaSnapshotPeriod(GoDuration.parse("2s"));
    // no full snapshot and no garbage collection during the test: the leader's agent answers
    // a gap it finds at a garbage collection with a full snapshot, which would end the chain
    etcd.getSpec().getBackup().setFullSnapshotSchedule(
        cloud.gardener.druid.api.types.CronSchedule.parse("0 0 1 1 *"));
    etcd.getSpec().getBackup().setGarbageCollectionPeriod(GoDuration.parse("1h"));
    client.resource(etcd).create();
    awaitRolloutComplete(client, ETCD, Duration.ofMinutes(4));
    return etcd;
  }

  /** A full snapshot with its hash, then three rounds of writes each in its own delta. */
  private static List<Path> backUp(KubernetesClient client, Etcd etcd, Path store)
      throws Exception {
    try (Client c = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      put(c, "/first/", 50);
      OnDemandSnapshotConfig full = new OnDemandSnapshotConfig();
      full.setType(OnDemandSnapshotConfig.SnapshotType.FULL);
      createTask(client, "full", ETCD, t -> t.setOnDemandSnapshot(full), null);
      awaitTaskState(client, "full", "Succeeded");
      Path newest = objects(store, "Full-").get(0);
      await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> Files.readString(
          store.resolve("druid-backup-hashes.json")).contains(newest.getFileName().toString()));
      for (int round = 0; round < 3; round++) {
        int before = deltasAfter(store, newest).size();
        put(c, "/round-" + round + "/", 50);
        await().atMost(Duration.ofSeconds(30))
            .until(() -> deltasAfter(store, newest).size() > before);
      }
      List<Path> deltas = deltasAfter(store, newest);
      assertThat(deltas).hasSizeGreaterThanOrEqualTo(3);
      return deltas;
    }
  }

  private static void put(Client c, String prefix, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      c.getKVClient().put(EtcdClients.bytes(prefix + i), EtcdClients.bytes("v" + i))
          .get(20, TimeUnit.SECONDS);
    }
  }

  /** A drill through a task: its state, then the condition's status, reason and object. */
  private static void verify(KubernetesClient client, String task, String state,
      String status, String reason, String object) {
    verify(client, task, state, status, java.util.Set.of(reason), object);
  }

  private static void verify(KubernetesClient client, String task, String state,
      String status, java.util.Set<String> reason, String object) {
    createTask(client, task, ETCD, c -> c.setVerifyBackups(new VerifyBackupsConfig()), null);
    EtcdOpsTask done = awaitTaskState(client, task, state);
    assertThat(done.getStatus().getState()).isEqualTo(state);
    Condition verified = await().atMost(Duration.ofSeconds(60)).until(
        () -> condition(client, ETCD, ConditionTypes.BACKUP_VERIFIED),
        c -> status.equals(c.getStatus()) && reason.contains(c.getReason())
            && c.getMessage().contains("(drill ended"));
    assertThat(verified.getMessage()).as(task).startsWith(object);
  }

  /** Objects of one kind in the store directory, newest (highest end revision) first. */
  private static List<Path> objects(Path store, String kind) throws Exception {
    try (Stream<Path> files = Files.list(store)) {
      return files.filter(f -> f.getFileName().toString().startsWith(kind))
          .sorted(Comparator.comparingLong(S3BackupVerificationIT::endRevision).reversed())
          .toList();
    }
  }

  /** The deltas after {@code full}, oldest first. */
  private static List<Path> deltasAfter(Path store, Path full) throws Exception {
    long from = endRevision(full);
    return objects(store, "Incr-").stream().filter(d -> startRevision(d) > from)
        .sorted(Comparator.comparingLong(S3BackupVerificationIT::startRevision)).toList();
  }

  private static long startRevision(Path snapshot) {
    return Long.parseLong(snapshot.getFileName().toString().split("-")[1]);
  }

  private static long endRevision(Path snapshot) {
    return Long.parseLong(snapshot.getFileName().toString().split("-")[2]);
  }
}
