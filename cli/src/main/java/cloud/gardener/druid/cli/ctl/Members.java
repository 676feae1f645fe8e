package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;

/** Member names of an Etcd: {@code <etcd>-<ordinal>}, ordinal below spec.replicas. */
final class Members {

  private Members() {
  }

  static void requireMember(Etcd etcd, String member) {
    String prefix = etcd.getMetadata().getName() + "-";
    int replicas = etcd.getSpec().getReplicas() == null ? 0 : etcd.getSpec().getReplicas();
    if (member.startsWith(prefix) && member.substring(prefix.length()).matches("\\d{1,6}")
        && Integer.parseInt(member.substring(prefix.length())) < replicas) {
      return;
    }
    throw new UserError("member " + member + " is not a member of etcd "
        + EtcdPlans.describe(etcd) + " (members: " + prefix + "0.." + prefix
        + Math.max(0, replicas - 1) + ")", ExitCodes.NOT_FOUND);
  }
}
