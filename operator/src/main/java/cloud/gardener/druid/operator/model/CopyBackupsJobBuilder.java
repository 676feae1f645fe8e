package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.CopyProgress;
import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTaskSpec;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.api.v1alpha1.WaitForFinalSnapshotSpec;
import io.fabric8.kubernetes.api.model.Volume;
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
 * The Job of an EtcdCopyBackupsTask, as upstream: {@code <task>-worker}, one pod running
 * {@code druid agent copy} with the source store's options prefixed {@code --source-}, the
 * store secrets mounted as files and {@code Local} stores as host directories; restarted on
 * failure (a copy skips what the target already holds, so a retry resumes it). Owned by the
 * task, so garbage collection removes it with the task.
 */
public final class CopyBackupsJobBuilder {

  public static final String COMPONENT = "etcd-copy-backups-task";
  public static final String CONTAINER = "copy-backups";
  static final String BASE_DIR = "/var/etcd-backup";

  private CopyBackupsJobBuilder() {
  }

  public static String jobName(EtcdCopyBackupsTask task) {
    return task.getMetadata().getName() + "-worker";
  }

  /** Why the task cannot run here (each message names the field), empty when it can. */
  public static List<String> unsupported(EtcdCopyBackupsTaskSpec spec) {
    List<String> errors = new ArrayList<>();
    check(errors, "spec.sourceStore", spec.getSourceStore());
    check(errors, "spec.targetStore", spec.getTargetStore());
    return errors;
  }

  private static void check(List<String> errors, String field, StoreSpec store) {
    if (store == null) {
      errors.add(field + ": required");
      return;
    }
    if (StoreProviders.of(store) instanceof StoreProviders.Refused refused) {
      errors.add(field + ".provider: " + refused.reason());
    }
    if (store.getPrefix() == null || store.getPrefix().isEmpty()) {
      errors.add(field + ".prefix: required");
    }
    if (!LocalStore.isLocal(store)
        && (store.getContainer() == null || store.getContainer().isEmpty())) {
      errors.add(field + ".container: required (the bucket or container)");
    }
  }

  public static Map<String, String> labels(EtcdCopyBackupsTask task) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE);
    labels.put(Labels.PART_OF, task.getMetadata().getName());
    labels.put(Labels.COMPONENT, COMPONENT);
    labels.put(Labels.NAME, jobName(task));
    return labels;
  }

  public static Job build(EtcdCopyBackupsTask task, OperatorSettings settings) {
    EtcdCopyBackupsTaskSpec spec = task.getSpec();
    Map<String, String> podLabels = new LinkedHashMap<>(
        Optional.ofNullable(spec.getPodLabels()).orElse(Map.of()));
    podLabels.putAll(labels(task));
    List<Volume> volumes = new ArrayList<>(List.of(PodSecurity.tmpVolume()));
    List<VolumeMount> mounts = new ArrayList<>(List.of(PodSecurity.tmpMount()));
    // the agent refuses a source whose identity marker names an Etcd of another namespace
    List<String> args = new ArrayList<>(List.of("agent", "copy",
        "--namespace=" + task.getMetadata().getNamespace()));
    String namespace = task.getMetadata().getNamespace();
    store(args, volumes, mounts, settings, namespace, spec.getTargetStore(), "", "target");
    store(args, volumes, mounts, settings, namespace, spec.getSourceStore(), "source-", "source");
    if (spec.getMaxBackupAge() != null) {
      args.add("--max-backup-age=" + spec.getMaxBackupAge());
    }
    if (spec.getMaxBackups() != null) {
      args.add("--max-backups-to-copy=" + spec.getMaxBackups());
    }
    WaitForFinalSnapshotSpec wait = spec.getWaitForFinalSnapshot();
    if (wait != null) {
      args.add("--wait-for-final-snapshot=" + Boolean.TRUE.equals(wait.getEnabled()));
      if (wait.getTimeout() != null) {
        args.add("--wait-for-final-snapshot-timeout=" + wait.getTimeout().text());
      }
    }
    return new JobBuilder()
        .withNewMetadata()
          .withName(jobName(task))
          .withNamespace(task.getMetadata().getNamespace())
          .withLabels(labels(task))
          .withOwnerReferences(Owners.controller(task))
        .endMetadata()
        .withNewSpec()
          .withNewTemplate()
            .withNewMetadata().withLabels(podLabels).endMetadata()
            .withNewSpec()
              .withRestartPolicy("OnFailure")
              .withSecurityContext(PodSecurity.pod(false))
              // druid agent copy talks to the stores only, never to the API server
              .withAutomountServiceAccountToken(false)
              .addNewContainer()
                .withName(CONTAINER)
                .withImage(settings.defaultImage())
                .withImagePullPolicy("IfNotPresent")
                .withArgs(args)
                // how far the copy is, read by the operator (CopyProgress)
                .addNewEnv().withName("POD_IP").withNewValueFrom().withNewFieldRef()
                  .withFieldPath("status.podIP").endFieldRef().endValueFrom().endEnv()
                .addNewPort().withName(CopyProgress.PORT_NAME)
                  .withContainerPort(CopyProgress.PORT).endPort()
                .withVolumeMounts(mounts)
                .withSecurityContext(PodSecurity.container(false))
              .endContainer()
              .withVolumes(volumes)
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }

  /**
   * Adds the {@code --<flagPrefix>store-…} options and the volumes named {@code <role>-…}; a
   * {@code Local} store is the one of the task's namespace.
   */
  private static void store(List<String> args, List<Volume> volumes, List<VolumeMount> mounts,
      OperatorSettings settings, String namespace, StoreSpec store, String flagPrefix,
      String role) {
    boolean local = LocalStore.isLocal(store);
    String localDir = BASE_DIR + "/" + role + "-local";
    String secretDir = BASE_DIR + "/" + role + "-secret";
    args.add("--" + flagPrefix + "store-provider=" + StoreProviders.agentProvider(store));
    args.add("--" + flagPrefix + "store-container=" + (local ? localDir : store.getContainer()));
    args.add("--" + flagPrefix + "store-prefix=" + store.getPrefix());
    if (store.getEndpointOverride() != null) {
      args.add("--" + flagPrefix + "store-endpoint-override=" + store.getEndpointOverride());
    }
    if (store.getSecretRef() != null) {
      args.add("--" + flagPrefix + "store-secret-dir=" + secretDir);
      volumes.add(MemberPodBuilder.secretVolume(role + "-store-secret",
          store.getSecretRef().getName()));
      mounts.add(new VolumeMountBuilder().withName(role + "-store-secret")
          .withMountPath(secretDir).withReadOnly(true).build());
    }
    if (local) {
      volumes.add(LocalStore.volume(role + "-local-store", settings, namespace,
          store));
      mounts.add(new VolumeMountBuilder().withName(role + "-local-store")
          .withMountPath(localDir).build());
    }
  }
}
