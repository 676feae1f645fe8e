package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.HibernationSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the Etcd-changing commands (confirm-volumes, hibernate, wake, reconcile, suspend,
 * resume, component-protection) will do to a given Etcd: pure functions from the Etcd as read to a {@link Plan}.
 */
public final class EtcdPlans {

  /** Where {@code hibernate} keeps the replica count that {@code wake} restores (CLI only). */
  public static final String REPLICAS_BEFORE_HIBERNATION =
      "druid.gardener.cloud/replicas-before-hibernation";
  static final String AWAITING_CONFIRMATION = "AwaitingConfirmation";

  private EtcdPlans() {
  }

  static Plan confirmVolumes(Etcd etcd) {
    long generation = etcd.getMetadata().getGeneration();
    Long observed = etcd.getStatus() == null ? null : etcd.getStatus().getObservedGeneration();
    if (!Objects.equals(observed, generation)) {
      return new Plan.Refusal("the operator has not observed generation " + generation
          + " yet (observed: " + observed + "), so it has not said what the change will do;"
          + " run this again once it has");
    }
    Optional<Condition> pending = condition(etcd, ConditionTypes.VOLUMES_UP_TO_DATE)
        .filter(c -> AWAITING_CONFIRMATION.equals(c.getReason()));
    if (pending.isEmpty()) {
      String confirmed = annotation(etcd, Annotations.CONFIRM_VOLUME_REPLACEMENT);
      return new Plan.Refusal(String.valueOf(generation).equals(confirmed)
          ? "generation " + generation + " is already confirmed"
          : "no volume change awaits confirmation ("
              + condition(etcd, ConditionTypes.VOLUMES_UP_TO_DATE)
                  .map(c -> ConditionTypes.VOLUMES_UP_TO_DATE + " is " + c.getStatus()
                      + (c.getReason() == null ? "" : ", " + c.getReason()))
                  .orElse(ConditionTypes.VOLUMES_UP_TO_DATE + " is absent") + ")");
    }
    String change = pending.get().getMessage() == null ? "(no description)"
        : pending.get().getMessage().replaceFirst(" Confirm with: .*$", "");
    return new Plan.Edit(List.of(
        "pending volume change: " + change,
        "will annotate etcd " + describe(etcd) + " " + Annotations.CONFIRM_VOLUME_REPLACEMENT
            + "=" + generation + " (confirms generation " + generation + " only)",
        "then the operator takes a full snapshot and replaces the volumes one member at a"
            + " time, the leader last (docs/volumes.md)"),
        e -> withAnnotation(e, Annotations.CONFIRM_VOLUME_REPLACEMENT, String.valueOf(generation)));
  }

  static Plan setEtcdVersion(Etcd etcd, String minor) {
    Optional<EtcdRelease> to = EtcdRelease.of(minor).filter(r -> r.minor().equals(minor));
    if (to.isEmpty()) {
      return new Plan.Refusal("etcd " + minor + " is not supported: choose one of "
          + EtcdRelease.MINORS);
    }
    EtcdRelease from = EtcdRelease.ofSpec(etcd.getSpec().getEtcd() == null ? null
        : etcd.getSpec().getEtcd().getVersion());
    String cluster = etcd.getStatus() == null ? null : etcd.getStatus().getEtcdClusterVersion();
    EtcdRelease running = EtcdRelease.of(cluster).orElse(from);
    if (to.get() == from) {
      return new Plan.Refusal("etcd " + describe(etcd) + " already asks for etcd " + minor
          + (cluster == null ? "" : " (cluster version " + cluster + ")"));
    }
    for (EtcdRelease base : List.of(from, running)) {
      if (!to.get().adjacentTo(base)) {
        EtcdRelease between = EtcdRelease.values()[(base.ordinal() + to.get().ordinal()) / 2];
        return new Plan.Refusal("etcd changes one minor at a time: " + base.minor() + " to "
            + minor + " skips " + between.minor() + "; set " + between.minor() + " first,"
            + " then " + minor);
      }
    }
    boolean down = to.get().minorNumber() < running.minorNumber();
    return new Plan.Edit(List.of(
        "etcd " + describe(etcd) + ": etcd " + from.minor() + (cluster == null ? ""
            : " (cluster version " + cluster + ")") + " -> " + minor + " (" + to.get().version()
            + ")",
        down ? "downgrade: a full snapshot, then etcd's downgrade to " + minor + " is enabled"
            + " (the cluster version drops at once), then the members roll back one by one,"
            + " the leader last"
            : "upgrade: a full snapshot, then the members one by one, the leader last; etcd"
            + " raises the cluster version once every member runs " + minor,
        "the rollout is complete once every member runs " + to.get().version()
            + " and the cluster version is " + minor),
        e -> {
          if (e.getSpec().getEtcd() == null) {
            e.getSpec().setEtcd(new cloud.gardener.druid.api.v1alpha1.EtcdConfig());
          }
          e.getSpec().getEtcd().setVersion(minor);
          return e;
        });
  }

  static Plan hibernate(Etcd etcd, boolean deleteVolumes) {
    int replicas = replicas(etcd);
    if (replicas == 0) {
      return new Plan.Refusal("etcd " + describe(etcd) + " is already hibernated (replicas 0)");
    }
    boolean store = etcd.getSpec().getBackup() != null
        && etcd.getSpec().getBackup().getStore() != null;
    if (deleteVolumes && !store) {
      return new Plan.Refusal("--delete-volumes needs a backup store (spec.backup.store) to"
          + " restore from on wake-up; etcd " + describe(etcd) + " has none");
    }
    List<String> steps = new ArrayList<>();
    steps.add("will set spec.replicas of etcd " + describe(etcd) + " from " + replicas
        + " to 0 (and remember " + replicas + " in " + REPLICAS_BEFORE_HIBERNATION + ")");
    if (deleteVolumes) {
      steps.add("will set spec.hibernation.deleteVolumes to true");
    }
    steps.add(store ? "then the operator takes a final full snapshot through the leader and"
        + " removes the pods" : "then the operator removes the pods (no backup store: no final"
        + " snapshot)");
    steps.add(deleteVolumes ? "and deletes the volumes; waking up restores from the store"
        : "the volumes (PVCs) are kept; waking up starts the members on them");
    return new Plan.Edit(steps, e -> {
      Etcd out = withAnnotation(e, REPLICAS_BEFORE_HIBERNATION, String.valueOf(replicas));
      out.getSpec().setReplicas(0);
      if (deleteVolumes) {
        HibernationSpec h = out.getSpec().getHibernation() == null ? new HibernationSpec()
            : out.getSpec().getHibernation();
        h.setDeleteVolumes(true);
        out.getSpec().setHibernation(h);
      }
      return out;
    });
  }

  static Plan wake(Etcd etcd, Integer replicasOption) {
    int replicas = replicas(etcd);
    if (replicas != 0) {
      return new Plan.Refusal("etcd " + describe(etcd) + " is not hibernated (replicas "
          + replicas + ")");
    }
    String remembered = annotation(etcd, REPLICAS_BEFORE_HIBERNATION);
    Integer target = replicasOption != null ? replicasOption
        : remembered == null ? null : Integer.valueOf(remembered);
    if (target == null || target < 1) {
      return new Plan.Refusal("etcd " + describe(etcd) + " was not hibernated by this command;"
          + " say how many members to start with --replicas");
    }
    boolean deleted = etcd.getSpec().getHibernation() != null
        && Boolean.TRUE.equals(etcd.getSpec().getHibernation().getDeleteVolumes());
    return new Plan.Edit(List.of(
        "will set spec.replicas of etcd " + describe(etcd) + " from 0 to " + target,
        deleted ? "its volumes were deleted: the members restore from the backup store"
            : "the members start on their kept volumes"),
        e -> {
          Etcd out = withoutAnnotation(e, REPLICAS_BEFORE_HIBERNATION);
          out.getSpec().setReplicas(target);
          return out;
        });
  }

  static Plan reconcile(Etcd etcd) {
    List<String> steps = new ArrayList<>();
    steps.add("will annotate etcd " + describe(etcd) + " " + Annotations.OPERATION + "="
        + Annotations.OPERATION_RECONCILE + ": the operator reconciles its spec once, also"
        + " with auto-reconcile off, and removes the annotation after success");
    if (annotation(etcd, Annotations.SUSPEND_SPEC_RECONCILE) != null) {
      steps.add("note: spec reconciles are suspended (" + Annotations.SUSPEND_SPEC_RECONCILE
          + "); nothing happens until 'resume'");
    }
    return new Plan.Edit(steps,
        e -> withAnnotation(e, Annotations.OPERATION, Annotations.OPERATION_RECONCILE));
  }

  static Plan suspend(Etcd etcd) {
    if (annotation(etcd, Annotations.SUSPEND_SPEC_RECONCILE) != null) {
      return new Plan.Refusal("spec reconciles of etcd " + describe(etcd)
          + " are already suspended");
    }
    return new Plan.Edit(List.of("will annotate etcd " + describe(etcd) + " "
            + Annotations.SUSPEND_SPEC_RECONCILE + "=true: spec changes are not applied until"
            + " 'resume'; the status keeps updating"),
        e -> withAnnotation(e, Annotations.SUSPEND_SPEC_RECONCILE, "true"));
  }

  static Plan resume(Etcd etcd) {
    if (annotation(etcd, Annotations.SUSPEND_SPEC_RECONCILE) == null) {
      return new Plan.Refusal("spec reconciles of etcd " + describe(etcd) + " are not suspended");
    }
    return new Plan.Edit(List.of("will remove " + Annotations.SUSPEND_SPEC_RECONCILE
            + " from etcd " + describe(etcd) + ": spec changes are applied again"),
        e -> withoutAnnotation(e, Annotations.SUSPEND_SPEC_RECONCILE));
  }

  /** {@code component-protection add}: upstream removes the annotation that lifts it. */
  static Plan protect(Etcd etcd) {
    if (annotation(etcd, Annotations.DISABLE_COMPONENT_PROTECTION) == null) {
      return new Plan.Refusal("the components of etcd " + describe(etcd)
          + " are already protected");
    }
    return new Plan.Edit(List.of("will remove " + Annotations.DISABLE_COMPONENT_PROTECTION
            + " from etcd " + describe(etcd) + ": changes to the objects the operator manages"
            + " for it by others are refused again (with the operator's component protection"
            + " webhook on)"),
        e -> withoutAnnotation(e, Annotations.DISABLE_COMPONENT_PROTECTION));
  }

  /** {@code component-protection remove}: upstream's annotation, with an empty value. */
  static Plan unprotect(Etcd etcd) {
    if (annotation(etcd, Annotations.DISABLE_COMPONENT_PROTECTION) != null) {
      return new Plan.Refusal("the components of etcd " + describe(etcd)
          + " are already unprotected");
    }
    return new Plan.Edit(List.of("will annotate etcd " + describe(etcd) + " "
            + Annotations.DISABLE_COMPONENT_PROTECTION + ": anyone with RBAC rights may then"
            + " change or delete the objects the operator manages for it"),
        e -> withAnnotation(e, Annotations.DISABLE_COMPONENT_PROTECTION, ""));
  }

  static String describe(Etcd etcd) {
    return etcd.getMetadata().getNamespace() + "/" + etcd.getMetadata().getName();
  }

  private static int replicas(Etcd etcd) {
    return etcd.getSpec().getReplicas() == null ? 0 : etcd.getSpec().getReplicas();
  }

  private static Optional<Condition> condition(Etcd etcd, String type) {
    return etcd.getStatus() == null ? Optional.empty()
        : Condition.find(etcd.getStatus().getConditions(), type);
  }

  private static String annotation(Etcd etcd, String key) {
    Map<String, String> a = etcd.getMetadata().getAnnotations();
    return a == null ? null : a.get(key);
  }

  private static Etcd withAnnotation(Etcd etcd, String key, String value) {
    Map<String, String> a = etcd.getMetadata().getAnnotations() == null ? new HashMap<>()
        : new HashMap<>(etcd.getMetadata().getAnnotations());
    a.put(key, value);
    etcd.getMetadata().setAnnotations(a);
    return etcd;
  }

  private static Etcd withoutAnnotation(Etcd etcd, String key) {
    if (etcd.getMetadata().getAnnotations() != null) {
      Map<String, String> a = new HashMap<>(etcd.getMetadata().getAnnotations());
      a.remove(key);
      etcd.getMetadata().setAnnotations(a);
    }
    return etcd;
  }
}
