package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdConfig;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds member pods. The pod of every member comes from one member-independent template; the
 * member-revision label is the hash of that template without the labels and annotations of the
 * Etcd's spec, so it changes exactly when something a member runs changes (not when the
 * cluster is scaled). Those labels and annotations have their own hash, the metadata-revision
 * annotation, and are applied to running pods in place ({@link #metadata}).
 */
public final class MemberPodBuilder {

  public static final String CONFIG_CHECKSUM_ANNOTATION = "checksum/etcd-configmap";
  static final String DATA_VOLUME = "etcd-data";

  private MemberPodBuilder() {
  }

  /** The desired member-revision of the pods of this Etcd. */
  public static String revision(Etcd etcd, OperatorSettings settings) {
    return Revisions.of(runTemplate(etcd, settings));
  }

  /** The desired metadata-revision: the hash of the spec's labels and annotations. */
  public static String metadataRevision(Etcd etcd) {
    var spec = etcd.getSpec();
    Map<String, Object> user = new LinkedHashMap<>();
    user.put("labels", spec.getLabels() == null ? Map.of() : spec.getLabels());
    user.put("annotations", spec.getAnnotations() == null ? Map.of() : spec.getAnnotations());
    return Revisions.of(user);
  }

  /**
   * The labels and annotations member {@code ordinal}'s pod should carry once updated in place:
   * the spec's and ours, with the revisions of what the pod {@code running} runs kept (an
   * in-place change does not make an outdated pod updated).
   */
  public static ObjectMeta metadata(Etcd etcd, OperatorSettings settings, int ordinal,
      Pod running) {
    ObjectMeta desired = build(etcd, settings, ordinal).getMetadata();
    Map<String, String> labels = new LinkedHashMap<>(desired.getLabels());
    Map<String, String> runningLabels = running.getMetadata().getLabels();
    labels.put(Labels.MEMBER_REVISION, runningLabels == null ? null
        : runningLabels.get(Labels.MEMBER_REVISION));
    Map<String, String> annotations = new LinkedHashMap<>(desired.getAnnotations());
    Map<String, String> runningAnnotations = running.getMetadata().getAnnotations();
    annotations.put(CONFIG_CHECKSUM_ANNOTATION, runningAnnotations == null ? null
        : runningAnnotations.get(CONFIG_CHECKSUM_ANNOTATION));
    annotations.put(TrustedCas.ANNOTATION, runningAnnotations == null ? null
        : runningAnnotations.get(TrustedCas.ANNOTATION));
    labels.values().removeIf(java.util.Objects::isNull);
    annotations.values().removeIf(java.util.Objects::isNull);
    return new ObjectMetaBuilder().withLabels(labels).withAnnotations(annotations).build();
  }

  /** The desired pod of member {@code ordinal}. */
  public static Pod build(Etcd etcd, OperatorSettings settings, int ordinal) {
    return build(etcd, settings, ordinal, EtcdDefaults.replicas(etcd));
  }

  /**
   * The desired pod of member {@code ordinal} whose agent bootstraps as one of
   * {@code bootstrapReplicas} members (1: alone, restoring from the store; the others join
   * it later). Not part of the revision: it only matters for a member without data.
   */
  public static Pod build(Etcd etcd, OperatorSettings settings, int ordinal,
      int bootstrapReplicas) {
    EtcdNames names = EtcdNames.of(etcd);
    Pod template = template(etcd, settings);
    Map<String, String> labels = new LinkedHashMap<>(template.getMetadata().getLabels());
    labels.put(Labels.MEMBER_ORDINAL, Integer.toString(ordinal));
    labels.put(Labels.MEMBER_REVISION, revision(etcd, settings));
    return new PodBuilder(template)
        .editMetadata()
          .withName(names.member(ordinal))
          .withLabels(labels)
          .addToAnnotations(Annotations.METADATA_REVISION, metadataRevision(etcd))
          .withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .editSpec()
          .withHostname(names.member(ordinal))
          .editFirstContainer()
            .addToArgs(AgentArgs.bootstrapReplicas(bootstrapReplicas))
            .addAllToArgs(AgentArgs.existingCluster(etcd))
          .endContainer()
          .addToVolumes(new VolumeBuilder().withName(DATA_VOLUME)
              .withNewPersistentVolumeClaim().withClaimName(names.pvc(ordinal)).endPersistentVolumeClaim()
              .build())
        .endSpec()
        .build();
  }

  static Pod template(Etcd etcd, OperatorSettings settings) {
    var spec = etcd.getSpec();
    Map<String, String> annotations = new LinkedHashMap<>();
    if (spec.getAnnotations() != null) {
      annotations.putAll(spec.getAnnotations());
    }
    annotations.putAll(runAnnotations(etcd));
    return new PodBuilder(runTemplate(etcd, settings))
        .editMetadata()
          .withLabels(EtcdLabels.merge(spec.getLabels(), EtcdLabels.memberSelector(etcd)))
          .withAnnotations(annotations)
        .endMetadata()
        .build();
  }

  /** Checksums of what a member reads only at start: the etcd configuration, the CA bundles. */
  private static Map<String, String> runAnnotations(Etcd etcd) {
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(CONFIG_CHECKSUM_ANNOTATION, EtcdConfigMapBuilder.checksum(etcd));
    TrustedCas.of(etcd).ifPresent(c -> annotations.put(TrustedCas.ANNOTATION, c));
    return annotations;
  }

  /** The template without the spec's labels and annotations: what a member runs. */
  private static Pod runTemplate(Etcd etcd, OperatorSettings settings) {
    EtcdNames names = EtcdNames.of(etcd);
    var spec = etcd.getSpec();
    var constraints = spec.getSchedulingConstraints();
    return new PodBuilder()
        .withNewMetadata()
          .withNamespace(names.namespace())
          .withLabels(EtcdLabels.memberSelector(etcd))
          .withAnnotations(runAnnotations(etcd))
        .endMetadata()
        .withNewSpec()
          .withSubdomain(names.peerService())
          .withServiceAccountName(names.serviceAccount())
          .withAutomountServiceAccountToken(true)
          .withPriorityClassName(spec.getPriorityClassName())
          .withAffinity(constraints == null ? null : constraints.getAffinity())
          .withTopologySpreadConstraints(constraints == null ? null : constraints.getTopologySpreadConstraints())
          .withTerminationGracePeriodSeconds(30L)
          .withRestartPolicy("Always")
          .withSecurityContext(PodSecurity.pod(runAsRoot(etcd)))
          .withContainers(container(etcd, settings))
          .withVolumes(volumes(etcd, settings))
        .endSpec()
        .build();
  }

  private static Container container(Etcd etcd, OperatorSettings settings) {
    EtcdConfig ec = EtcdDefaults.etcd(etcd);
    return new ContainerBuilder()
        .withName(MemberLayout.CONTAINER)
        .withImage(EtcdDefaults.image(etcd, settings))
        .withArgs(AgentArgs.build(etcd, settings))
        .withEnv(downwardEnv())
        .addToEnv(MemberJvm.env(etcd))
        .addNewPort().withName("client").withContainerPort(EtcdDefaults.clientPort(etcd)).endPort()
        .addNewPort().withName("peer").withContainerPort(EtcdDefaults.peerPort(etcd)).endPort()
        .addNewPort().withName("agent").withContainerPort(EtcdDefaults.agentPort(etcd)).endPort()
        .withResources(MemberResources.of(ec.getResources(),
            EtcdDefaults.backup(etcd).getResources()))
        .withNewReadinessProbe()
          .withNewHttpGet().withPath(cloud.gardener.druid.api.agent.AgentApi.READYZ)
            .withNewPort(EtcdDefaults.agentPort(etcd)).withScheme("HTTPS").endHttpGet()
          .withPeriodSeconds(2)
          .withFailureThreshold(3)
        .endReadinessProbe()
        .withVolumeMounts(mounts(etcd))
        .withSecurityContext(PodSecurity.container(runAsRoot(etcd)))
        .build();
  }

  static boolean runAsRoot(Etcd etcd) {
    return Boolean.TRUE.equals(etcd.getSpec().getRunAsRoot());
  }

  private static List<EnvVar> downwardEnv() {
    return List.of(
        fieldEnv("POD_NAME", "metadata.name"),
        fieldEnv("POD_NAMESPACE", "metadata.namespace"),
        fieldEnv("POD_IP", "status.podIP"));
  }

  private static EnvVar fieldEnv(String name, String path) {
    return new EnvVarBuilder().withName(name)
        .withNewValueFrom().withNewFieldRef().withFieldPath(path).endFieldRef().endValueFrom()
        .build();
  }

  private static List<VolumeMount> mounts(Etcd etcd) {
    List<VolumeMount> mounts = new ArrayList<>();
    mounts.add(mount(DATA_VOLUME, MemberLayout.DATA_DIR));
    mounts.add(mount("etcd-config", MemberLayout.CONFIG_DIR));
    mounts.add(PodSecurity.tmpMount());
    EtcdConfig ec = EtcdDefaults.etcd(etcd);
    if (ec.getClientUrlTls() != null) {
      mounts.add(mount("client-tls", MemberLayout.CLIENT_TLS_DIR));
    }
    if (ec.getPeerUrlTls() != null) {
      mounts.add(mount("peer-tls", MemberLayout.PEER_TLS_DIR));
    }
    if (ec.getAuthSecretRef() != null) {
      mounts.add(EtcdAuthSecret.mount());
    }
    mounts.add(mount("agent-tls", MemberLayout.AGENT_TLS_DIR));
    var store = EtcdDefaults.backup(etcd).getStore();
    if (store != null && store.getSecretRef() != null) {
      mounts.add(mount("store-secret", MemberLayout.STORE_SECRET_DIR));
    }
    if (LocalStore.isLocal(store)) {
      mounts.add(mount("local-store", MemberLayout.LOCAL_STORE_DIR));
    }
    return mounts;
  }

  private static List<Volume> volumes(Etcd etcd, OperatorSettings settings) {
    EtcdNames names = EtcdNames.of(etcd);
    List<Volume> volumes = new ArrayList<>();
    volumes.add(new VolumeBuilder().withName("etcd-config")
        .withNewConfigMap().withName(names.configMap()).endConfigMap().build());
    volumes.add(PodSecurity.tmpVolume());
    EtcdConfig ec = EtcdDefaults.etcd(etcd);
    tlsVolume(volumes, "client-tls", ec.getClientUrlTls());
    if (ec.getPeerUrlTls() != null) {
      volumes.add(secretVolume("peer-tls", names.peerTlsSecret()));
    }
    volumes.add(agentTlsVolume(etcd));
    if (ec.getAuthSecretRef() != null) {
      volumes.add(EtcdAuthSecret.volume(ec.getAuthSecretRef().getName()));
    }
    var store = EtcdDefaults.backup(etcd).getStore();
    if (store != null && store.getSecretRef() != null) {
      volumes.add(secretVolume("store-secret", store.getSecretRef().getName()));
    }
    if (LocalStore.isLocal(store)) {
      volumes.add(LocalStore.volume("local-store", settings,
          etcd.getMetadata().getNamespace(), store));
    }
    return volumes;
  }

  /** One directory with ca.crt (from the CA secret's data key), tls.crt and tls.key. */
  static void tlsVolume(List<Volume> volumes, String name, TLSConfig tls) {
    if (tls == null) {
      return;
    }
    String caKey = EtcdConfigMapBuilder.caKey(tls.getTlsCASecretRef());
    volumes.add(new VolumeBuilder().withName(name).withNewProjected()
        .addNewSource().withNewSecret().withName(tls.getTlsCASecretRef().getName())
          .addNewItem().withKey(caKey).withPath(MemberLayout.DEFAULT_CA_KEY).endItem()
        .endSecret().endSource()
        .addNewSource().withNewSecret().withName(tls.getServerTLSSecretRef().getName())
          .addNewItem().withKey("tls.crt").withPath("tls.crt").endItem()
          .addNewItem().withKey("tls.key").withPath("tls.key").endItem()
        .endSecret().endSource()
        .endProjected().build());
  }

  /**
   * The agent API's directory: the CA bundle of the callers (the operator's own CA, from its
   * Secret) and the server certificate of {@code spec.backup.tls}, or the operator's.
   */
  private static Volume agentTlsVolume(Etcd etcd) {
    String issued = EtcdNames.of(etcd).agentApiSecret();
    TLSConfig tls = EtcdDefaults.backup(etcd).getTls();
    String server = tls == null ? issued : tls.getServerTLSSecretRef().getName();
    return new VolumeBuilder().withName("agent-tls").withNewProjected()
        .addNewSource().withNewSecret().withName(issued)
          .addNewItem().withKey("ca.crt").withPath(MemberLayout.DEFAULT_CA_KEY).endItem()
        .endSecret().endSource()
        .addNewSource().withNewSecret().withName(server)
          .addNewItem().withKey("tls.crt").withPath("tls.crt").endItem()
          .addNewItem().withKey("tls.key").withPath("tls.key").endItem()
        .endSecret().endSource()
        .endProjected().build();
  }

  static Volume secretVolume(String name, String secret) {
    return new VolumeBuilder().withName(name)
        .withNewSecret().withSecretName(secret).endSecret().build();
  }

  private static VolumeMount mount(String name, String path) {
    return new VolumeMountBuilder().withName(name).withMountPath(path).build();
  }
}
