package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.RestoreIntoConfig;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.api.v1alpha1.UndeleteConfig;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The Jobs of time travel (addition, docs/time-travel.md), one pod each, never restarted,
 * running the operator's image with the source Etcd's store and a scratch {@code emptyDir}:
 * {@code <etcd>-restore-into} runs {@code druid agent restore-to} (the store mounted
 * writable: it writes the new Etcd's prefix), {@code <etcd>-undelete} runs {@code druid agent
 * undelete} with the members' client URLs and client TLS (the store read only). The report is
 * the pod's termination message. Owned by the source Etcd; bounded like the restore drill.
 */
public final class TimeTravelJobBuilder {

  public static final String COMPONENT = "etcd-time-travel-job";
  public static final String CONTAINER = "time-travel";
  static final String WORKSPACE = "/var/etcd/data";

  /** The two Jobs. */
  public enum Kind {
    RESTORE_INTO("restore-into"), UNDELETE("undelete");

    private final String suffix;

    Kind(String suffix) {
      this.suffix = suffix;
    }
  }

  private TimeTravelJobBuilder() {
  }

  public static String jobName(Etcd etcd, Kind kind) {
    return etcd.getMetadata().getName() + "-" + kind.suffix;
  }

  /**
   * The new Etcd's store prefix: the one asked for, else the source's with its last segment
   * replaced by the new Etcd's name.
   */
  public static String targetPrefix(Etcd source, RestoreIntoConfig c) {
    if (c.getStorePrefix() != null) {
      return c.getStorePrefix();
    }
    String prefix = EtcdDefaults.backup(source).getStore().getPrefix();
    int slash = prefix.lastIndexOf('/');
    return (slash < 0 ? "" : prefix.substring(0, slash + 1)) + c.getEtcdName();
  }

  public static Job restoreInto(Etcd etcd, RestoreIntoConfig c, OperatorSettings settings,
      Duration deadline) {
    List<String> args = new ArrayList<>(List.of("agent", "restore-to",
        "--target-store-prefix=" + targetPrefix(etcd, c),
        "--target-etcd-name=" + c.getEtcdName(),
        "--data-dir=" + WORKSPACE + "/restore"));
    args.add(c.getRevision() != null ? "--to-revision=" + c.getRevision()
        : "--to-time=" + c.getTime());
    return build(etcd, Kind.RESTORE_INTO, args, false, settings, deadline);
  }

  public static Job undelete(Etcd etcd, UndeleteConfig c, OperatorSettings settings,
      Duration deadline) {
    List<String> args = new ArrayList<>(List.of("agent", "undelete",
        "--prefix=" + c.getPrefix(),
        "--endpoints=" + endpoints(etcd),
        "--data-dir=" + WORKSPACE + "/undelete"));
    args.add(c.getRevision() != null ? "--at-revision=" + c.getRevision()
        : "--at-time=" + c.getTime());
    if (Boolean.TRUE.equals(c.getDryRun())) {
      args.add("--dry-run");
    }
    if (Boolean.TRUE.equals(c.getRemoveCreatedAfter())) {
      args.add("--remove-created-after");
    }
    if (EtcdDefaults.clientTls(etcd)) {
      args.add("--client-tls-dir=" + MemberLayout.CLIENT_TLS_DIR);
    }
    return build(etcd, Kind.UNDELETE, args, true, settings, deadline);
  }

  /** Every member's client URL (its stable name): the writes go to whichever answers. */
  static String endpoints(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    String scheme = EtcdDefaults.clientTls(etcd) ? "https" : "http";
    return IntStream.range(0, Math.max(1, EtcdDefaults.replicas(etcd)))
        .mapToObj(i -> scheme + "://" + names.memberHost(i) + ":" + EtcdDefaults.clientPort(etcd))
        .collect(Collectors.joining(","));
  }

  public static Map<String, String> labels(Etcd etcd, Kind kind) {
    Map<String, String> labels = EtcdLabels.managed(etcd);
    labels.put(Labels.COMPONENT, COMPONENT);
    labels.put(Labels.NAME, jobName(etcd, kind));
    return labels;
  }

  private static Job build(Etcd etcd, Kind kind, List<String> command, boolean storeReadOnly,
      OperatorSettings settings, Duration deadline) {
    EtcdNames names = EtcdNames.of(etcd);
    StoreSpec store = EtcdDefaults.backup(etcd).getStore();
    boolean local = LocalStore.isLocal(store);
    List<String> args = new ArrayList<>(command);
    args.addAll(List.of("--etcd-name=" + names.etcd(),
        AgentArgs.ETCD_VERSION + EtcdDefaults.etcdRelease(etcd).version(),
        "--store-provider=" + StoreProviders.agentProvider(store),
        "--store-container=" + (local ? MemberLayout.LOCAL_STORE_DIR : store.getContainer()),
        "--store-prefix=" + store.getPrefix()));
    if (store.getEndpointOverride() != null) {
      args.add("--store-endpoint-override=" + store.getEndpointOverride());
    }
    List<Volume> volumes = new ArrayList<>(List.of(PodSecurity.tmpVolume(),
        new VolumeBuilder().withName("workspace").withNewEmptyDir().endEmptyDir().build()));
    List<VolumeMount> mounts = new ArrayList<>(List.of(PodSecurity.tmpMount(),
        mount("workspace", WORKSPACE, false)));
    if (store.getSecretRef() != null) {
      args.add("--store-secret-dir=" + MemberLayout.STORE_SECRET_DIR);
      volumes.add(MemberPodBuilder.secretVolume("store-secret", store.getSecretRef().getName()));
      mounts.add(mount("store-secret", MemberLayout.STORE_SECRET_DIR, true));
    }
    EtcdAuthSecret.addTo(etcd, args, volumes, mounts);
    if (local) {
      volumes.add(LocalStore.volume("local-store", settings,
          etcd.getMetadata().getNamespace(), store));
      mounts.add(mount("local-store", MemberLayout.LOCAL_STORE_DIR, storeReadOnly));
    }
    if (kind == Kind.UNDELETE && EtcdDefaults.clientTls(etcd)) {
      MemberPodBuilder.tlsVolume(volumes, "client-tls",
          EtcdDefaults.etcd(etcd).getClientUrlTls());
      mounts.add(mount("client-tls", MemberLayout.CLIENT_TLS_DIR, true));
    }
    return job(etcd, kind, args, volumes, mounts, settings, deadline, names);
  }

  private static Job job(Etcd etcd, Kind kind, List<String> args, List<Volume> volumes,
      List<VolumeMount> mounts, OperatorSettings settings, Duration deadline, EtcdNames names) {
    boolean root = MemberPodBuilder.runAsRoot(etcd);
    return new JobBuilder()
        .withNewMetadata()
          .withName(jobName(etcd, kind)).withNamespace(names.namespace())
          .withLabels(labels(etcd, kind)).withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withNewSpec()
          .withActiveDeadlineSeconds(deadline.toSeconds()).withCompletions(1).withBackoffLimit(0)
          .withNewTemplate()
            .withNewMetadata().withLabels(labels(etcd, kind)).endMetadata()
            .withNewSpec()
              .withActiveDeadlineSeconds(deadline.toSeconds())
              .withServiceAccountName(names.serviceAccount())
              .withAutomountServiceAccountToken(false)
              .withRestartPolicy("Never")
              .withSecurityContext(PodSecurity.pod(root))
              .addNewContainer()
                .withName(CONTAINER).withImage(settings.defaultImage())
                .withImagePullPolicy("IfNotPresent").withArgs(args)
                .withEnv(new EnvVarBuilder().withName("POD_NAMESPACE").withNewValueFrom()
                    .withNewFieldRef().withFieldPath("metadata.namespace").endFieldRef()
                    .endValueFrom().build())
                .withResources(BackupDrillJobBuilder.resources(etcd))
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withSecurityContext(PodSecurity.container(root))
                .withVolumeMounts(mounts)
              .endContainer()
              .withVolumes(volumes)
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }

  private static VolumeMount mount(String name, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(name).withMountPath(path).withReadOnly(readOnly)
        .build();
  }
}
