package cloud.gardener.druid.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field of the upstream API (and of our documented additions) is in the generated CRD
 * schema under its upstream JSON name, so that existing clients work unchanged.
 */
class UpstreamFieldsTest {

  static final List<String> ETCD = List.of(
      "spec.replicas", "spec.labels", "spec.annotations", "spec.selector", "spec.memberNamePrefix",
      "spec.etcd.quota", "spec.etcd.snapshotCount", "spec.etcd.enableGRPCGateway",
      "spec.etcd.defragmentationSchedule", "spec.etcd.metrics", "spec.etcd.resources",
      "spec.etcd.serverPort", "spec.etcd.clientPort", "spec.etcd.wrapperPort", "spec.etcd.image",
      "spec.etcd.authSecretRef",
      "spec.etcd.clientUrlTls.tlsCASecretRef.name", "spec.etcd.clientUrlTls.tlsCASecretRef.namespace",
      "spec.etcd.clientUrlTls.tlsCASecretRef.dataKey", "spec.etcd.clientUrlTls.serverTLSSecretRef",
      "spec.etcd.clientUrlTls.clientTLSSecretRef",
      "spec.etcd.peerUrlTls.tlsCASecretRef.dataKey", "spec.etcd.peerUrlTls.serverTLSSecretRef",
      "spec.etcd.peerUrlTls.clientTLSSecretRef", "spec.etcd.peerUrlTls.skipClientSANVerification",
      "spec.etcd.etcdDefragTimeout", "spec.etcd.heartbeatDuration",
      "spec.etcd.clientService.annotations", "spec.etcd.clientService.labels",
      "spec.etcd.clientService.trafficDistribution", "spec.etcd.backendBboltFreelistType",
      "spec.etcd.additionalAdvertisePeerURLs[].memberName",
      "spec.etcd.additionalAdvertisePeerURLs[].urls",
      "spec.etcd.bootstrapWithExistingCluster.clientEndpoints",
      "spec.etcd.bootstrapWithExistingCluster.members[].name",
      "spec.etcd.bootstrapWithExistingCluster.members[].peerUrls",
      "spec.backup.port", "spec.backup.tls.tlsCASecretRef", "spec.backup.tls.serverTLSSecretRef",
      "spec.backup.image", "spec.backup.resources",
      "spec.backup.store.container", "spec.backup.store.endpointOverride", "spec.backup.store.prefix",
      "spec.backup.store.provider", "spec.backup.store.secretRef",
      "spec.backup.snapshotCompaction.resources", "spec.backup.snapshotCompaction.eventsThreshold",
      "spec.backup.snapshotCompaction.triggerFullSnapshotThreshold",
      "spec.backup.fullSnapshotSchedule", "spec.backup.garbageCollectionPolicy",
      "spec.backup.maxBackupsLimitBasedGC", "spec.backup.garbageCollectionPeriod",
      "spec.backup.deltaSnapshotPeriod", "spec.backup.deltaSnapshotMemoryLimit",
      "spec.backup.deltaSnapshotRetentionPeriod", "spec.backup.compression.enabled",
      "spec.backup.compression.policy", "spec.backup.enableProfiling",
      "spec.backup.etcdSnapshotTimeout", "spec.backup.leaderElection.reelectionPeriod",
      "spec.backup.leaderElection.etcdConnectionTimeout",
      "spec.sharedConfig.autoCompactionMode", "spec.sharedConfig.autoCompactionRetention",
      "spec.schedulingConstraints.affinity", "spec.schedulingConstraints.topologySpreadConstraints",
      "spec.priorityClassName", "spec.runAsRoot", "spec.storageClass", "spec.storageCapacity",
      "spec.volumeClaimTemplate",
      "status.observedGeneration", "status.conditions[].type", "status.conditions[].status",
      "status.conditions[].lastTransitionTime", "status.conditions[].lastUpdateTime",
      "status.conditions[].reason", "status.conditions[].message",
      "status.lastErrors[].code", "status.lastErrors[].description", "status.lastErrors[].observedAt",
      "status.lastOperation.type", "status.lastOperation.state", "status.lastOperation.description",
      "status.lastOperation.runID", "status.lastOperation.lastUpdateTime",
      "status.currentReplicas", "status.replicas", "status.readyReplicas", "status.ready",
      "status.selector", "status.etcd", "status.labelSelector", "status.peerUrlTLSEnabled",
      "status.bootstrapWithExistingCluster.joinedAt",
      "status.bootstrapWithExistingCluster.members[].name",
      "status.bootstrapWithExistingCluster.members[].peerUrls",
      "status.members[].name", "status.members[].id", "status.members[].role",
      "status.members[].status", "status.members[].reason", "status.members[].lastTransitionTime",
      // this operator's additions, not in upstream's API
      "status.members[].memberRevision", "status.members[].volumeRevision",
      "status.members[].updated", "spec.hibernation.deleteVolumes",
      "status.volumeOperation.phase", "status.volumeOperation.currentMember");

  static final List<String> OPS_TASK = List.of(
      "spec.config.onDemandSnapshot.type", "spec.config.onDemandSnapshot.isFinal",
      "spec.config.onDemandSnapshot.timeoutSecondsFull",
      "spec.config.onDemandSnapshot.timeoutSecondsDelta",
      "spec.etcdName", "spec.ttlSecondsAfterFinished",
      "status.state", "status.startedAt", "status.lastTransitionTime",
      "status.lastErrors[].code", "status.lastOperation.type", "status.lastOperation.state",
      // this operator's additions, not in upstream's API
      "spec.config.defragment", "spec.config.replaceMemberVolume.memberName",
      "spec.config.recoverFromQuorumLoss");

  static final List<String> COPY_TASK = List.of(
      "spec.sourceStore.prefix", "spec.targetStore.provider", "spec.maxBackupAge",
      "spec.maxBackups", "spec.waitForFinalSnapshot.enabled", "spec.waitForFinalSnapshot.timeout",
      "spec.podLabels", "status.conditions[].type", "status.observedGeneration",
      "status.lastError");

  static Stream<Arguments> fields() {
    return Stream.of(
        ETCD.stream().map(p -> Arguments.of("etcds", p)),
        OPS_TASK.stream().map(p -> Arguments.of("etcdopstasks", p)),
        COPY_TASK.stream().map(p -> Arguments.of("etcdcopybackupstasks", p)))
        .flatMap(s -> s);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("fields")
  void fieldIsInGeneratedSchema(String plural, String path) {
    assertThat(CrdSchema.of(plural).find(path)).as(plural + " " + path).isPresent();
  }

  @ParameterizedTest(name = "required {0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {
      "spec.replicas", "spec.labels", "spec.etcd", "spec.backup", "spec.backup.store.prefix",
      "spec.etcd.clientUrlTls.tlsCASecretRef", "spec.etcd.clientUrlTls.serverTLSSecretRef"})
  void upstreamRequiredFieldsAreRequired(String path) {
    assertThat(CrdSchema.of("etcds").isRequired(path)).as(path).isTrue();
  }

  @org.junit.jupiter.api.Test
  void enumsCarryUpstreamValues() {
    CrdSchema etcd = CrdSchema.of("etcds");
    assertThat(enumOf(etcd, "spec.etcd.metrics")).containsExactlyInAnyOrder("basic", "extensive");
    assertThat(enumOf(etcd, "spec.backup.garbageCollectionPolicy"))
        .containsExactlyInAnyOrder("Exponential", "LimitBased");
    assertThat(enumOf(etcd, "spec.backup.compression.policy"))
        .containsExactlyInAnyOrder("gzip", "lzw", "zlib");
    assertThat(enumOf(etcd, "spec.backup.store.provider"))
        .contains("Local", "S3", "ABS", "GCS", "Swift", "OSS", "ECS", "OCS");
    assertThat(enumOf(etcd, "spec.etcd.backendBboltFreelistType"))
        .containsExactlyInAnyOrder("array", "map");
    assertThat(enumOf(CrdSchema.of("etcdopstasks"), "spec.config.onDemandSnapshot.type"))
        .containsExactlyInAnyOrder("full", "delta");
  }

  private static List<String> enumOf(CrdSchema schema, String path) {
    return schema.get(path).getEnum().stream().map(n -> n.asText()).toList();
  }
}
