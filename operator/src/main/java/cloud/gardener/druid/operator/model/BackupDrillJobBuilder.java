package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.BackupVerificationSpec;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.api.verify.DrillReport;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The restore drill Job of an Etcd (addition, docs/backup-verification.md):
 * {@code <etcd>-backup-drill}, one pod, never restarted, running {@code druid agent
 * verify-backups} from the operator's image with the Etcd's store (read only), a scratch
 * {@code emptyDir} and the Etcd's service account, which may update only the verification
 * lease where the drill writes its report. Bounded: a memory limit and an active deadline.
 * Owned by the Etcd. Nothing of the members is mounted or called.
 */
public final class BackupDrillJobBuilder {

  public static final String COMPONENT = "etcd-backup-drill-job";
  public static final String CONTAINER = "verify-backups";
  static final Quantity DEFAULT_CPU = new Quantity("500m");
  static final Quantity DEFAULT_MEMORY = new Quantity("1Gi");
  static final Quantity DEFAULT_MEMORY_LIMIT = new Quantity("3Gi");
  static final String WORKSPACE = "/var/etcd/data";

  private BackupDrillJobBuilder() {
  }

  public static String jobName(Etcd etcd) {
    return etcd.getMetadata().getName() + "-backup-drill";
  }

  public static String leaseName(Etcd etcd) {
    return DrillReport.leaseName(etcd.getMetadata().getName());
  }

  /** Scheduled drills run for an Etcd with a store unless switched off. */
  public static boolean scheduled(Etcd etcd) {
    BackupVerificationSpec v = verification(etcd);
    return EtcdDefaults.hasStore(etcd) && (v == null || !Boolean.FALSE.equals(v.getEnabled()));
  }

  /** The cron schedule of the drills ({@link BackupVerificationSpec#DEFAULT_SCHEDULE}). */
  public static String schedule(Etcd etcd) {
    BackupVerificationSpec v = verification(etcd);
    return v == null || v.getSchedule() == null || !v.getSchedule().isValid()
        ? BackupVerificationSpec.DEFAULT_SCHEDULE : v.getSchedule().text();
  }

  private static BackupVerificationSpec verification(Etcd etcd) {
    return etcd.getSpec().getBackup() == null ? null
        : etcd.getSpec().getBackup().getVerification();
  }

  public static Map<String, String> labels(Etcd etcd) {
    Map<String, String> labels = EtcdLabels.managed(etcd);
    labels.put(Labels.COMPONENT, COMPONENT);
    labels.put(Labels.NAME, jobName(etcd));
    return labels;
  }

  public static Job build(Etcd etcd, OperatorSettings settings, Duration deadline) {
    EtcdNames names = EtcdNames.of(etcd);
    StoreSpec store = EtcdDefaults.backup(etcd).getStore();
    boolean local = LocalStore.isLocal(store);
    List<String> args = new ArrayList<>(List.of("agent", "verify-backups",
        "--etcd-name=" + names.etcd(),
        "--data-dir=" + WORKSPACE + "/drill",
        // the Etcd's etcd restores it, as a member and the compaction Job would
        AgentArgs.ETCD_VERSION + EtcdDefaults.etcdRelease(etcd).version(),
        "--report-lease=" + leaseName(etcd),
        "--store-provider=" + StoreProviders.agentProvider(store),
        "--store-container=" + (local ? MemberLayout.LOCAL_STORE_DIR : store.getContainer()),
        "--store-prefix=" + store.getPrefix()));
    if (store.getEndpointOverride() != null) {
      args.add("--store-endpoint-override=" + store.getEndpointOverride());
    }
    List<Volume> volumes = new ArrayList<>(List.of(PodSecurity.tmpVolume(),
        new VolumeBuilder().withName("drill-workspace").withNewEmptyDir().endEmptyDir()
            .build()));
    List<VolumeMount> mounts = new ArrayList<>(List.of(PodSecurity.tmpMount(),
        mount("drill-workspace", WORKSPACE, false)));
    if (store.getSecretRef() != null) {
      args.add("--store-secret-dir=" + MemberLayout.STORE_SECRET_DIR);
      volumes.add(MemberPodBuilder.secretVolume("store-secret", store.getSecretRef().getName()));
      mounts.add(mount("store-secret", MemberLayout.STORE_SECRET_DIR, true));
    }
    EtcdAuthSecret.addTo(etcd, args, volumes, mounts);
    if (local) {
      volumes.add(LocalStore.volume("local-store", settings,
          etcd.getMetadata().getNamespace(), store));
      mounts.add(mount("local-store", MemberLayout.LOCAL_STORE_DIR, true));
    }
    boolean root = MemberPodBuilder.runAsRoot(etcd);
    return new JobBuilder()
        .withNewMetadata()
          .withName(jobName(etcd)).withNamespace(names.namespace()).withLabels(labels(etcd))
          .withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withNewSpec()
          .withActiveDeadlineSeconds(deadline.toSeconds()).withCompletions(1).withBackoffLimit(0)
          .withNewTemplate()
            .withNewMetadata().withLabels(labels(etcd)).endMetadata()
            .withNewSpec()
              .withActiveDeadlineSeconds(deadline.toSeconds())
              .withServiceAccountName(names.serviceAccount())
              .withAutomountServiceAccountToken(true)
              .withRestartPolicy("Never")
              .withSecurityContext(PodSecurity.pod(root))
              .addNewContainer()
                .withName(CONTAINER).withImage(settings.defaultImage())
                .withImagePullPolicy("IfNotPresent").withArgs(args)
                .withEnv(new EnvVarBuilder().withName("POD_NAMESPACE").withNewValueFrom()
                    .withNewFieldRef().withFieldPath("metadata.namespace").endFieldRef()
                    .endValueFrom().build())
                .withResources(resources(etcd))
                .withSecurityContext(PodSecurity.container(root))
                .withVolumeMounts(mounts)
              .endContainer()
              .withVolumes(volumes)
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }

  /** The Etcd's drill resources, else bounded defaults (a memory limit always). */
  static ResourceRequirements resources(Etcd etcd) {
    BackupVerificationSpec v = verification(etcd);
    ResourceRequirements given = v == null ? null : v.getResources();
    Map<String, Quantity> requests = new LinkedHashMap<>(Map.of("cpu", DEFAULT_CPU,
        "memory", DEFAULT_MEMORY));
    Map<String, Quantity> limits = new LinkedHashMap<>(Map.of("memory", DEFAULT_MEMORY_LIMIT));
    Optional.ofNullable(given).map(ResourceRequirements::getRequests).ifPresent(requests::putAll);
    Optional.ofNullable(given).map(ResourceRequirements::getLimits).ifPresent(limits::putAll);
    ResourceRequirements resources = new ResourceRequirements();
    resources.setRequests(requests);
    resources.setLimits(limits);
    return resources;
  }

  private static VolumeMount mount(String name, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(name).withMountPath(path).withReadOnly(readOnly)
        .build();
  }
}
