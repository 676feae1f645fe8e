package cloud.gardener.druid.operator.status;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdConfig;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The upstream fields an Etcd sets that this operator accepts but does not act on, each with
 * what the operator does instead. A field is listed only when its value asks for something
 * else than what the members do anyway (e.g. {@code metrics: basic} is etcd's default). The
 * list becomes the condition {@code UpstreamFieldsIgnored} (and, through it, a Warning event),
 * so that no field is dropped silently. The timeouts, {@code heartbeatDuration},
 * {@code leaderElection} and {@code backup.resources} are honoured ({@code AgentArgs},
 * {@code MemberResources}). docs/upstream-differences.md has the whole table.
 */
public final class UpstreamFields {

  static final String REASON = "UpstreamFieldsNotImplemented";

  private UpstreamFields() {
  }

  /** One field the operator does not act on. */
  public record Ignored(String field, String instead) {
    @Override
    public String toString() {
      return field + ": " + instead;
    }
  }

  public static List<Ignored> of(Etcd etcd) {
    List<Ignored> ignored = new ArrayList<>();
    EtcdConfig ec = etcd.getSpec().getEtcd();
    BackupSpec b = etcd.getSpec().getBackup();
    if (etcd.getSpec().getSelector() != null) {
      ignored.add(new Ignored("spec.selector", "members are selected by their own labels"
          + " (spec.labels and the operator's labels)"));
    }
    if (ec != null) {
      etcd(ec, ignored);
    }
    if (b != null) {
      backup(b, ignored);
    }
    return ignored;
  }

  private static void etcd(EtcdConfig ec, List<Ignored> ignored) {
    if (set(ec.getImage())) {
      ignored.add(new Ignored("spec.etcd.image", "members run etcd from the operator's member"
          + " image, which ships etcd 3.5, 3.6 and 3.7; choose one with spec.etcd.version"));
    }
    if (ec.getWrapperPort() != null) {
      ignored.add(new Ignored("spec.etcd.wrapperPort", "there is no etcd-wrapper; the agent"
          + " API listens on spec.backup.port"));
    }
    if (Boolean.FALSE.equals(ec.getEnableGRPCGateway())) {
      ignored.add(new Ignored("spec.etcd.enableGRPCGateway", "etcd always serves its gRPC"
          + " gateway"));
    }
  }

  private static void backup(BackupSpec b, List<Ignored> ignored) {
    if (set(b.getImage()) && !EtcdDefaults.isMemberImage(b.getImage())) {
      ignored.add(new Ignored("spec.backup.image", "not an image of this operator (repository"
          + " name " + EtcdDefaults.MEMBER_IMAGE_NAME + "): members run the operator's member"
          + " image, which holds the agent"));
    }
    if (Boolean.TRUE.equals(b.getEnableProfiling())) {
      ignored.add(new Ignored("spec.backup.enableProfiling", "the agent serves no pprof"
          + " profiles (a JVM: use Java Flight Recorder)"));
    }
    if (b.getTls() != null && b.getTls().getClientTLSSecretRef() != null) {
      ignored.add(new Ignored("spec.backup.tls.clientTLSSecretRef", "the operator calls the"
          + " agent with a client certificate it issues itself"));
    }
  }

  /** The condition naming every ignored field, or none when the spec sets none. */
  public static Optional<Condition> condition(Etcd etcd) {
    List<Ignored> ignored = of(etcd);
    if (ignored.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(Conditions.of(ConditionTypes.UPSTREAM_FIELDS_IGNORED,
        ConditionTypes.TRUE, REASON, "Accepted but not acted on: " + ignored.stream()
            .map(Ignored::toString).collect(Collectors.joining("; ")) + "."));
  }

  private static boolean set(String value) {
    return value != null && !value.isBlank();
  }
}
