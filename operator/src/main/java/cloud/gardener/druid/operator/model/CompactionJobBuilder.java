package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.SnapshotCompactionSpec;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The snapshot compaction Job of an Etcd, as upstream's: {@code <etcd>-compactor}, one pod
 * (never restarted, no retry: the operator decides about the next one) running
 * {@code druid agent compact} from the operator's image with the Etcd's store, its service
 * account (to update the snapshot leases) and a scratch {@code emptyDir}; killed after the
 * operator's active deadline. Owned by the Etcd.
 */
public final class CompactionJobBuilder {

  public static final String COMPONENT = "etcd-snapshot-compaction-job";
  public static final String CONTAINER = "compact-backup";
  /** Upstream's requests when {@code snapshotCompaction.resources} names none. */
  static final Quantity DEFAULT_CPU = new Quantity("600m");
  static final Quantity DEFAULT_MEMORY = new Quantity("3Gi");
  static final String WORKSPACE = "/var/etcd/data";

  private CompactionJobBuilder() {
  }

  public static String jobName(Etcd etcd) {
    return etcd.getMetadata().getName() + "-compactor";
  }

  /** The Etcd's {@code snapshotCompaction.eventsThreshold}, else the operator's. */
  public static long eventsThreshold(Etcd etcd, OperatorSettings settings) {
    SnapshotCompactionSpec spec = EtcdDefaults.backup(etcd).getSnapshotCompaction();
    return spec != null && spec.getEventsThreshold() != null ? spec.getEventsThreshold()
        : settings.compaction().eventsThreshold();
  }

  /** The Etcd's {@code snapshotCompaction.triggerFullSnapshotThreshold}, else the operator's. */
  public static long fullSnapshotThreshold(Etcd etcd, OperatorSettings settings) {
    SnapshotCompactionSpec spec = EtcdDefaults.backup(etcd).getSnapshotCompaction();
    return spec != null && spec.getTriggerFullSnapshotThreshold() != null
        ? spec.getTriggerFullSnapshotThreshold() : settings.compaction().fullSnapshotThreshold();
  }

  public static Map<String, String> labels(Etcd etcd) {
    Map<String, String> labels = EtcdLabels.managed(etcd);
    labels.put(Labels.COMPONENT, COMPONENT);
    labels.put(Labels.NAME, jobName(etcd));
    return labels;
  }

  public static Job build(Etcd etcd, OperatorSettings settings) {
    EtcdNames names = EtcdNames.of(etcd);
    StoreSpec store = EtcdDefaults.backup(etcd).getStore();
    boolean local = LocalStore.isLocal(store);
    List<String> args = new ArrayList<>(List.of("agent", "compact",
        "--etcd-name=" + names.etcd(),
        "--data-dir=" + WORKSPACE + "/compaction.etcd",
        // the Etcd's etcd: a compacted snapshot is written by the minor its members run
        AgentArgs.ETCD_VERSION + EtcdDefaults.etcdRelease(etcd).version(),
        "--enable-snapshot-lease-renewal=true",
        "--full-snapshot-lease-name=" + names.fullSnapshotLease(),
        "--delta-snapshot-lease-name=" + names.deltaSnapshotLease(),
        "--store-provider=" + StoreProviders.agentProvider(store),
        "--store-container=" + (local ? MemberLayout.LOCAL_STORE_DIR : store.getContainer()),
        "--store-prefix=" + store.getPrefix()));
    if (store.getEndpointOverride() != null) {
      args.add("--store-endpoint-override=" + store.getEndpointOverride());
    }
    var snapshotTimeout = EtcdDefaults.backup(etcd).getEtcdSnapshotTimeout();
    if (snapshotTimeout != null) {
      args.add("--etcd-snapshot-timeout=" + snapshotTimeout.text());
    }
    List<Volume> volumes = new ArrayList<>(List.of(PodSecurity.tmpVolume()));
    List<VolumeMount> mounts = new ArrayList<>(List.of(PodSecurity.tmpMount()));
    volumes.add(new VolumeBuilder().withName("etcd-workspace-dir").withNewEmptyDir()
        .endEmptyDir().build());
    mounts.add(mount("etcd-workspace-dir", WORKSPACE));
    if (store.getSecretRef() != null) {
      args.add("--store-secret-dir=" + MemberLayout.STORE_SECRET_DIR);
      volumes.add(MemberPodBuilder.secretVolume("store-secret", store.getSecretRef().getName()));
      mounts.add(new VolumeMountBuilder().withName("store-secret")
          .withMountPath(MemberLayout.STORE_SECRET_DIR).withReadOnly(true).build());
    }
    EtcdAuthSecret.addTo(etcd, args, volumes, mounts);
    if (local) {
      volumes.add(LocalStore.volume("local-store", settings,
          etcd.getMetadata().getNamespace(), store));
      mounts.add(mount("local-store", MemberLayout.LOCAL_STORE_DIR));
    }
    long deadline = settings.compaction().activeDeadline().getSeconds();
    Map<String, String> annotations = new LinkedHashMap<>(
        Optional.ofNullable(etcd.getSpec().getAnnotations()).orElse(Map.of()));
    // a compaction is restartable: the autoscaler may evict it, unlike a member
    annotations.remove("cluster-autoscaler.kubernetes.io/safe-to-evict", "false");
    return new JobBuilder()
        .withNewMetadata()
          .withName(jobName(etcd))
          .withNamespace(names.namespace())
          .withLabels(labels(etcd))
          .withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withNewSpec()
          .withActiveDeadlineSeconds(deadline)
          .withCompletions(1)
          .withBackoffLimit(0)
          .withNewTemplate()
            .withNewMetadata().withLabels(labels(etcd)).withAnnotations(annotations).endMetadata()
            .withNewSpec()
              .withActiveDeadlineSeconds(deadline)
              .withServiceAccountName(names.serviceAccount())
              .withAutomountServiceAccountToken(true)
              .withRestartPolicy("Never")
              .withSecurityContext(PodSecurity.pod(MemberPodBuilder.runAsRoot(etcd)))
              .addNewContainer()
                .withName(CONTAINER)
                .withImage(settings.defaultImage())
                .withImagePullPolicy("IfNotPresent")
                .withArgs(args)
                .withEnv(new EnvVarBuilder().withName("POD_NAMESPACE").withNewValueFrom()
                    .withNewFieldRef().withFieldPath("metadata.namespace").endFieldRef()
                    .endValueFrom().build())
                .withResources(resources(etcd))
                .withSecurityContext(PodSecurity.container(MemberPodBuilder.runAsRoot(etcd)))
                .withVolumeMounts(mounts)
              .endContainer()
              .withVolumes(volumes)
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }

  /** The Etcd's compaction resources, with upstream's requests where it names none. */
  static ResourceRequirements resources(Etcd etcd) {
    SnapshotCompactionSpec compaction = EtcdDefaults.backup(etcd).getSnapshotCompaction();
    ResourceRequirements given = compaction == null ? null : compaction.getResources();
    Map<String, Quantity> requests = new LinkedHashMap<>();
    requests.put("cpu", DEFAULT_CPU);
    requests.put("memory", DEFAULT_MEMORY);
    if (given != null && given.getRequests() != null) {
      given.getRequests().forEach((name, q) -> {
        if (q.getNumericalAmount().signum() != 0 || !requests.containsKey(name)) {
          requests.put(name, q);
        }
      });
    }
    ResourceRequirements resources = new ResourceRequirements();
    resources.setRequests(requests);
    if (given != null) {
      resources.setLimits(given.getLimits());
    }
    return resources;
  }

  private static VolumeMount mount(String name, String path) {
    return new VolumeMountBuilder().withName(name).withMountPath(path).build();
  }
}
